/* heappages.c: `proftool heap --pages`: a Ruby heap dump's pages, as a table (how full
 * each page is) or drawn as SVG (a row of slots per page, coloured by type). */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "report/ci.h"
#include "report/heap.h"
#include <stdlib.h>

#include "util/json.h"
#include "util/xalloc.h"

static double share(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

int pt_report_heap_pages(const struct pt_heap_pages *p, const char *path, long limit,
			 enum pt_report_format format, FILE *out)
{
	size_t i, n = pt_report_shown(limit, p->n);
	uint64_t pinned = 0, cap = (uint64_t)p->n * p->slots;

	for (i = 0; i < p->n; i++)
		pinned += p->v[i].pinned;
	if (format == PT_FMT_JSON) {
		yajl_gen g = pt_json_gen(out);
		pt_yajl()->gen_map_open(g);
		pt_json_key_str(g, "file", path);
		pt_json_key_int(g, "page_size", (int64_t)p->page_size);
		pt_json_key_int(g, "slot_size", (int64_t)p->slot_size);
		pt_json_key_int(g, "slots_per_page", (int64_t)p->slots);
		pt_json_key_int(g, "pages", (int64_t)p->n);
		pt_json_key_int(g, "live_slots", (int64_t)p->live);
		pt_json_key_int(g, "pinned", (int64_t)pinned);
		pt_json_key_int(g, "pages_under_25pct", (int64_t)p->under25);
		pt_json_cstr(g, "rows");
		pt_yajl()->gen_array_open(g);
		for (i = 0; i < n; i++) {
			char a[24];
			snprintf(a, sizeof(a), "0x%" PRIx64, p->v[i].base);
			pt_yajl()->gen_map_open(g);
			pt_json_key_str(g, "address", a);
			pt_json_key_int(g, "live", p->v[i].live);
			pt_json_key_int(g, "pinned", p->v[i].pinned);
			pt_yajl()->gen_map_close(g);
		}
		pt_yajl()->gen_array_close(g);
		pt_yajl()->gen_map_close(g);
		pt_json_done(g, out);
		return 0;
	}
	if (format == PT_FMT_CSV) {
		fputs("address,live,slots,pinned\n", out);
		for (i = 0; i < n; i++)
			fprintf(out, "0x%" PRIx64 ",%" PRIu32 ",%" PRIu64 ",%" PRIu32 "\n",
				p->v[i].base, p->v[i].live, p->slots, p->v[i].pinned);
		return 0;
	}
	fprintf(out, "File: %s\n", path);
	fprintf(out,
		"Pages: %zu of %" PRIu64 " bytes, %" PRIu64 " slots of %" PRIu64 " bytes each\n",
		p->n, p->page_size, p->slots, p->slot_size);
	fprintf(out,
		"Live slots: %" PRIu64 " of %" PRIu64 " (%.2f%%), %.1f per page; pinned %" PRIu64
		"\n",
		p->live, cap, share(p->live, cap), p->n ? (double)p->live / (double)p->n : 0.0,
		pinned);
	fprintf(out, "Pages under 25%% full: %" PRIu64 " (%.2f%%)\n", p->under25,
		share(p->under25, p->n));
	fprintf(out, "Showing %zu of %zu pages, by address\n", n, p->n);
	fprintf(out, "%18s %8s %7s %8s\n", "page", "live", "full%", "pinned");
	for (i = 0; i < n; i++)
		fprintf(out, "%#18" PRIx64 " %8" PRIu32 " %6.2f%% %8" PRIu32 "\n", p->v[i].base,
			p->v[i].live, share(p->v[i].live, p->slots), p->v[i].pinned);
	return 0;
}

/* a type's colour: a hue from its name, so one type has one colour in every drawing */
static void type_colour(const char *name, char *buf, size_t n)
{
	uint32_t h = 2166136261u;
	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	snprintf(buf, n, "hsl(%u,%u%%,%u%%)", h % 360, 55 + (h >> 9) % 30, 45 + (h >> 17) % 15);
}

#define SLOT_W 2
#define ROW_H  6
#define LEFT   130

int pt_report_heap_pages_svg(const struct pt_heap_pages *p, const struct pt_heapgraph *g,
			     const char *path, FILE *out)
{
	uint64_t width = LEFT + p->slots * SLOT_W + 10, height = 60 + (uint64_t)p->n * ROW_H;
	uint8_t *used = pt_xcalloc((size_t)g->nnode_types + 1, 1);
	char col[48];
	size_t i, k;
	uint32_t t, y;

	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n");
	fprintf(out,
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%" PRIu64
		"\" height=\"%" PRIu64 "\" font-family=\"monospace\" font-size=\"11\">\n",
		width, height + 20 * ((uint64_t)g->nnode_types / 6 + 2));
	fprintf(out, "<title>heap pages of ");
	pt_xml_text(out, path);
	fprintf(out,
		"</title>\n<text x=\"4\" y=\"14\">%zu pages, %" PRIu64 " live of %" PRIu64
		" slots; grey: free; black outline: pinned</text>\n",
		p->n, p->live, (uint64_t)p->n * p->slots);
	for (i = 0; i < p->n; i++) {
		const struct pt_heap_page *pg = &p->v[i];
		y = 30 + (uint32_t)i * ROW_H;
		fprintf(out, "<text x=\"4\" y=\"%u\" font-size=\"6\">0x%" PRIx64 "</text>", y + 5,
			pg->base);
		fprintf(out,
			"<rect x=\"%d\" y=\"%u\" width=\"%" PRIu64
			"\" height=\"%d\" fill=\"#e4e4e4\"/>\n",
			LEFT, y, p->slots * SLOT_W, ROW_H - 1);
		for (k = pg->first; k < (size_t)pg->first + pg->live; k++) {
			uint32_t v = p->order[k];
			uint64_t s = pt_heap_slot(p, pg->base, g->rb_addr[v]);
			t = g->rb_type[v];
			used[t] = 1;
			type_colour(g->node_types[t], col, sizeof(col));
			fprintf(out,
				"<rect x=\"%" PRIu64
				"\" y=\"%u\" width=\"%d\" height=\"%d\" fill=\"%s\"%s/>\n",
				LEFT + s * SLOT_W, y, SLOT_W, ROW_H - 1, col,
				g->rb_pinned && g->rb_pinned[v]
					? " stroke=\"black\" stroke-width=\"0.5\""
					: "");
		}
	}
	y = (uint32_t)height;
	for (t = 0, k = 0; t < g->nnode_types; t++) {
		if (!used[t])
			continue;
		type_colour(g->node_types[t], col, sizeof(col));
		fprintf(out, "<rect x=\"%zu\" y=\"%zu\" width=\"10\" height=\"10\" fill=\"%s\"/>",
			4 + (k % 6) * 110, y + (k / 6) * 20, col);
		fprintf(out, "<text x=\"%zu\" y=\"%zu\">", 18 + (k % 6) * 110,
			y + (k / 6) * 20 + 9);
		pt_xml_text(out, g->node_types[t]);
		fprintf(out, "</text>\n");
		k++;
	}
	fprintf(out, "</svg>\n");
	free(used);
	return 0;
}
