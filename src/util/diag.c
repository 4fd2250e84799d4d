/* diag.c: error records and their one-line rendering. */
#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "util/diag.h"

void pt_diag_init(struct pt_diag *d, const char *path)
{
	memset(d, 0, sizeof(*d));
	d->path = path;
}

/* A message is one line whatever the input put into it (a reader quotes the bytes it
 * refuses): control characters but the tab become '?'. */
static void one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 ? *s != '\t' : *s == 0x7f)
			*s = '?';
}

static int verror(struct pt_diag *d, enum pt_diag_where w, uint64_t pos, const char *fmt,
		  va_list ap)
{
	d->where = w;
	d->pos = pos;
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	one_line(d->msg);
	return -1;
}

int pt_diag_error(struct pt_diag *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror(d, PT_DIAG_NOWHERE, 0, fmt, ap);
	va_end(ap);
	return -1;
}

int pt_diag_error_line(struct pt_diag *d, uint64_t line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror(d, PT_DIAG_LINE, line, fmt, ap);
	va_end(ap);
	return -1;
}

int pt_diag_error_at(struct pt_diag *d, uint64_t offset, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror(d, PT_DIAG_OFFSET, offset, fmt, ap);
	va_end(ap);
	return -1;
}

int pt_diag_verror_at(struct pt_diag *d, uint64_t offset, const char *fmt, va_list ap)
{
	return verror(d, PT_DIAG_OFFSET, offset, fmt, ap);
}

int pt_diag_prefix(struct pt_diag *d, const char *fmt, ...)
{
	char msg[sizeof(d->msg)];
	va_list ap;
	int n;

	memcpy(msg, d->msg, sizeof(msg));
	va_start(ap, fmt);
	n = vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(d->msg))
		snprintf(d->msg + n, sizeof(d->msg) - (size_t)n, "%s", msg);
	one_line(d->msg);
	return -1;
}

void pt_diag_skip(struct pt_diag *d, uint64_t line)
{
	if (!d->skipped++)
		d->first_skipped_line = line;
}

void pt_diag_dangling(struct pt_diag *d, uint64_t off)
{
	if (!d->dangling++)
		d->first_dangling_off = off;
}

void pt_diag_dangling_line(struct pt_diag *d, uint64_t line)
{
	if (!d->dangling_refs++ || line < d->first_dangling_line)
		d->first_dangling_line = line;
}

void pt_diag_cut(struct pt_diag *d, uint64_t record, uint64_t line)
{
	d->cut_record_line = record;
	d->cut_line = line;
}

static void vwarn(struct pt_diag *d, enum pt_diag_where w, uint64_t pos, const char *fmt,
		  va_list ap)
{
	if (d->nwarn < PT_DIAG_MAX_WARN) {
		d->warn[d->nwarn].where = w;
		d->warn[d->nwarn].pos = pos;
		vsnprintf(d->warn[d->nwarn].msg, sizeof(d->warn[0].msg), fmt, ap);
		one_line(d->warn[d->nwarn].msg);
	}
	d->nwarn++;
}

void pt_diag_warn(struct pt_diag *d, enum pt_diag_where w, uint64_t pos, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(d, w, pos, fmt, ap);
	va_end(ap);
}

void pt_diag_warn_at(struct pt_diag *d, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(d, PT_DIAG_OFFSET, off, fmt, ap);
	va_end(ap);
}

void pt_diag_print(const struct pt_diag *d, FILE *fp)
{
	const char *path = d->path ? d->path : "";
	switch (d->where) {
	case PT_DIAG_LINE:
		fprintf(fp, "proftool: %s:%llu: %s\n", path, (unsigned long long)d->pos, d->msg);
		break;
	case PT_DIAG_OFFSET:
		fprintf(fp, "proftool: %s: byte %llu: %s\n", path, (unsigned long long)d->pos,
			d->msg);
		break;
	default:
		if (d->path)
			fprintf(fp, "proftool: %s: %s\n", path, d->msg);
		else
			fprintf(fp, "proftool: %s\n", d->msg);
	}
}

void pt_diag_print_warnings(const struct pt_diag *d, FILE *fp)
{
	const char *path = d->path ? d->path : "";
	uint32_t i;

	if (d->skipped)
		fprintf(fp,
			"proftool: %s: warning: skipped %llu invalid line%s (first at line %llu)\n",
			d->path ? d->path : "", (unsigned long long)d->skipped,
			d->skipped == 1 ? "" : "s", (unsigned long long)d->first_skipped_line);
	if (d->dangling)
		fprintf(fp,
			"proftool: %s: byte %llu: warning: %llu reference%s to nodes the input "
			"lacks (the first here): such nodes hang from the root, such samples are "
			"left out\n",
			d->path ? d->path : "", (unsigned long long)d->first_dangling_off,
			(unsigned long long)d->dangling, d->dangling == 1 ? "" : "s");
	if (d->dangling_refs)
		fprintf(fp,
			"proftool: %s:%llu: warning: %llu reference%s to objects the input never "
			"defines (the first here), left out\n",
			d->path ? d->path : "", (unsigned long long)d->first_dangling_line,
			(unsigned long long)d->dangling_refs, d->dangling_refs == 1 ? "" : "s");
	if (d->cut_line && d->cut_record_line == d->cut_line)
		fprintf(fp,
			"proftool: %s:%llu: warning: the input ends inside this line; its last "
			"record is incomplete and left out\n",
			d->path ? d->path : "", (unsigned long long)d->cut_line);
	else if (d->cut_line)
		fprintf(fp,
			"proftool: %s:%llu: warning: the input ends inside this line; its last "
			"record (from line %llu) is incomplete and left out\n",
			d->path ? d->path : "", (unsigned long long)d->cut_line,
			(unsigned long long)d->cut_record_line);
	for (i = 0; i < d->nwarn && i < PT_DIAG_MAX_WARN; i++) {
		if (d->warn[i].where == PT_DIAG_LINE)
			fprintf(fp, "proftool: %s:%llu: warning: %s\n", path,
				(unsigned long long)d->warn[i].pos, d->warn[i].msg);
		else if (d->warn[i].where == PT_DIAG_OFFSET)
			fprintf(fp, "proftool: %s: byte %llu: warning: %s\n", path,
				(unsigned long long)d->warn[i].pos, d->warn[i].msg);
		else
			fprintf(fp, "proftool: %s: warning: %s\n", path, d->warn[i].msg);
	}
	if (d->nwarn > PT_DIAG_MAX_WARN)
		fprintf(fp, "proftool: %s: warning: %u more warnings\n", d->path ? d->path : "",
			d->nwarn - PT_DIAG_MAX_WARN);
}
