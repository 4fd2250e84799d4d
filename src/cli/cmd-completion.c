/* cmd-completion.c: `proftool completion bash|zsh|fish`: a completion script for the
 * shell, made from the command table and each command's option table as its --help
 * prints them (each command is run with --help in a child process, so the script holds
 * exactly the options the binary takes). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/buf.h"
#include "cli/cli.h"
#include "cli/cmd.h"
#include "util/xalloc.h"

static const struct pt_opt completion_options[] = {
	{NULL, 0, 0, 0, NULL, NULL},
};
static const struct pt_opt *const tables[] = {completion_options, pt_help_option, NULL};
static const struct pt_cmd_spec spec = {
	"completion", "completion bash|zsh|fish",
	"Print a completion script for the shell: commands, each command's options and file\n"
	"names. bash: eval \"$(proftool completion bash)\" in ~/.bashrc; zsh: the output as\n"
	"_proftool in a folder of $fpath; fish: the output as\n"
	"~/.config/fish/completions/proftool.fish.",
	tables, NULL};

/* one option as --help shows it */
struct copt {
	char *name;  /* long name */
	char shortc; /* 0: none */
	char *arg;   /* its value's name, NULL: a flag */
	char *help;
};

struct ccmd {
	const struct pt_cmd *cmd;
	struct copt *v;
	size_t n, alloc;
};

/* what `proftool NAME --help` prints, run in a child */
static int help_text(const struct pt_cmd *c, struct pt_buf *out)
{
	static char help_arg[] = "--help";
	int fd[2], status;
	char chunk[4096];
	ssize_t got;
	pid_t pid;

	if (pipe(fd) < 0)
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (!pid) {
		char *args[] = {(char *)c->name, help_arg, NULL};
		close(fd[0]);
		if (dup2(fd[1], STDOUT_FILENO) < 0)
			_exit(1);
		optind = 0;
		c->fn(2, args);
		fflush(stdout);
		_exit(0);
	}
	close(fd[1]);
	while ((got = read(fd[0], chunk, sizeof(chunk))) > 0)
		pt_buf_add(out, chunk, (size_t)got);
	close(fd[0]);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	if (strstr(out->buf, PT_HELP_SHARED_LINE)) {
		/* the shared options the help names in one line are the command's too */
		char *mem = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&mem, &len);
		if (!m)
			return -1;
		pt_help_topic("input", m);
		pt_help_topic("filters", m);
		fclose(m);
		pt_buf_add(out, mem, len);
		free(mem);
	}
	return 0;
}

static char *dup_range(const char *s, size_t n)
{
	char *r = pt_xmalloc(n + 1);
	memcpy(r, s, n);
	r[n] = 0;
	return r;
}

/* an option line of pt_usage: "  -c, --name ARG   help" or "      --name ARG   help",
 * the help after two blanks or more, or on the next line when the left part is long */
static void parse_line(struct ccmd *c, const char *line, const char *next)
{
	struct copt o;
	const char *p = line, *e, *h;

	memset(&o, 0, sizeof(o));
	if (!strncmp(p, "  -", 3) && p[3] && !strncmp(p + 4, ", --", 4)) {
		o.shortc = p[3];
		p += 8;
	} else if (!strncmp(p, "      --", 8)) {
		p += 8;
	} else {
		return;
	}
	e = p + strcspn(p, " ");
	o.name = dup_range(p, (size_t)(e - p));
	h = strstr(e, "  ");
	if (*e == ' ' && e[1] != ' ') {
		const char *a = e + 1, *ae = a + strcspn(a, " ");
		o.arg = dup_range(a, (size_t)(ae - a));
	}
	if (h) {
		h += strspn(h, " ");
	} else if (next) {
		h = next + strspn(next, " ");
	} else {
		h = "";
	}
	o.help = dup_range(h, strcspn(h, "\n"));
	PT_ALLOC_GROW(c->v, c->n + 1, c->alloc);
	c->v[c->n++] = o;
}

static void parse_help(struct ccmd *c, char *text)
{
	char *line = text, *nl;

	while (line && *line) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		parse_line(c, line, nl ? nl + 1 : NULL);
		line = nl ? nl + 1 : NULL;
	}
}

/* text between single quotes in sh and zsh: ' as '\'' ; in fish: ' and \ escaped */
static void quoted(struct pt_buf *b, const char *s, int fish)
{
	pt_buf_addch(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			pt_buf_addstr(b, fish ? "\\'" : "'\\''");
		else if (fish && *s == '\\')
			pt_buf_addstr(b, "\\\\");
		else
			pt_buf_addch(b, *s);
	}
	pt_buf_addch(b, '\'');
}

static int takes_file(const struct copt *o)
{
	return o->arg && (strstr(o->arg, "FILE") || strstr(o->arg, "LIST") ||
			  strstr(o->arg, "DIR") || strstr(o->arg, "PATH"));
}

static void bash_script(const struct ccmd *c, size_t n, struct pt_buf *b)
{
	size_t i, j;

	pt_buf_addstr(b, "# bash completion for proftool, from `proftool completion bash`\n"
			 "_proftool() {\n"
			 "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
			 "\tlocal opts= files=\n"
			 "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
			 "\t\tCOMPREPLY=($(compgen -W '");
	for (i = 0; i < n; i++)
		pt_buf_addf(b, "%s%s", i ? " " : "", c[i].cmd->name);
	pt_buf_addstr(b, "' -- \"$cur\"))\n\t\treturn\n\tfi\n\tcase ${COMP_WORDS[1]} in\n");
	for (i = 0; i < n; i++) {
		pt_buf_addf(b, "\t%s)\n\t\topts='", c[i].cmd->name);
		for (j = 0; j < c[i].n; j++) {
			pt_buf_addf(b, "%s--%s", j ? " " : "", c[i].v[j].name);
			if (c[i].v[j].shortc)
				pt_buf_addf(b, " -%c", c[i].v[j].shortc);
		}
		pt_buf_addstr(b, "'\n\t\tfiles='");
		for (j = 0; j < c[i].n; j++)
			if (takes_file(&c[i].v[j])) {
				pt_buf_addf(b, " --%s", c[i].v[j].name);
				if (c[i].v[j].shortc)
					pt_buf_addf(b, " -%c", c[i].v[j].shortc);
			}
		pt_buf_addstr(b, " '\n\t\t;;\n");
	}
	pt_buf_addstr(b, "\tesac\n"
			 "\tcase \"$files\" in\n"
			 "\t*\" $prev \"*) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
			 "\tesac\n"
			 "\tcase $cur in\n"
			 "\t-*) COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\")) ;;\n"
			 "\t*) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n"
			 "\tesac\n"
			 "}\n"
			 "complete -o filenames -o bashdefault -F _proftool proftool\n");
}

/* o as an _arguments spec, quoted: --name[help] and :ARG:action for a value (the help's
 * brackets made parentheses: a ']' would end it) */
static void zsh_spec(struct pt_buf *b, const struct copt *o)
{
	struct pt_buf t = PT_BUF_INIT;
	const char *s;

	pt_buf_addf(&t, "--%s[", o->name);
	for (s = o->help; *s; s++)
		pt_buf_addch(&t, *s == '[' ? '(' : *s == ']' ? ')' : *s);
	pt_buf_addch(&t, ']');
	if (o->arg)
		pt_buf_addf(&t, ":%s:%s", o->arg, takes_file(o) ? "_files" : " ");
	quoted(b, t.buf, 0);
	pt_buf_release(&t);
}

static void zsh_script(const struct ccmd *c, size_t n, struct pt_buf *b)
{
	size_t i, j;

	pt_buf_addstr(b, "#compdef proftool\n"
			 "# zsh completion for proftool, from `proftool completion zsh`\n"
			 "_proftool() {\n"
			 "\tlocal -a commands opts\n"
			 "\tcommands=(\n");
	for (i = 0; i < n; i++) {
		struct pt_buf t = PT_BUF_INIT;
		pt_buf_addf(&t, "%s:%s", c[i].cmd->name, c[i].cmd->help);
		pt_buf_addstr(b, "\t\t");
		quoted(b, t.buf, 0);
		pt_buf_addch(b, '\n');
		pt_buf_release(&t);
	}
	pt_buf_addstr(b, "\t)\n"
			 "\tif (( CURRENT == 2 )); then\n"
			 "\t\t_describe -t commands 'proftool command' commands\n"
			 "\t\treturn\n"
			 "\tfi\n"
			 "\tcase $words[2] in\n");
	for (i = 0; i < n; i++) {
		pt_buf_addf(b, "\t(%s)\n\t\topts=(\n", c[i].cmd->name);
		for (j = 0; j < c[i].n; j++) {
			pt_buf_addstr(b, "\t\t\t");
			zsh_spec(b, &c[i].v[j]);
			pt_buf_addch(b, '\n');
		}
		pt_buf_addstr(b, "\t\t)\n\t\t;;\n");
	}
	pt_buf_addstr(b, "\tesac\n"
			 "\tshift words\n"
			 "\t(( CURRENT-- ))\n"
			 "\t_arguments -S $opts '*:file:_files'\n"
			 "}\n"
			 "_proftool \"$@\"\n");
}

static void fish_script(const struct ccmd *c, size_t n, struct pt_buf *b)
{
	size_t i, j;

	pt_buf_addstr(b, "# fish completion for proftool, from `proftool completion fish`\n"
			 "complete -c proftool -f -n __fish_use_subcommand\n");
	for (i = 0; i < n; i++) {
		pt_buf_addf(b, "complete -c proftool -f -n __fish_use_subcommand -a %s -d ",
			    c[i].cmd->name);
		quoted(b, c[i].cmd->help, 1);
		pt_buf_addch(b, '\n');
	}
	for (i = 0; i < n; i++) {
		pt_buf_addf(b, "complete -c proftool -n '__fish_seen_subcommand_from %s' -F\n",
			    c[i].cmd->name);
		for (j = 0; j < c[i].n; j++) {
			const struct copt *o = &c[i].v[j];
			pt_buf_addf(
				b, "complete -c proftool -n '__fish_seen_subcommand_from %s' -l %s",
				c[i].cmd->name, o->name);
			if (o->shortc)
				pt_buf_addf(b, " -s %c", o->shortc);
			if (o->arg)
				pt_buf_addstr(b, takes_file(o) ? " -r -F" : " -x");
			pt_buf_addstr(b, " -d ");
			quoted(b, o->help, 1);
			pt_buf_addch(b, '\n');
		}
	}
}

int cmd_completion(int argc, char **argv)
{
	struct pt_buf b = PT_BUF_INIT;
	struct ccmd *c;
	size_t i, j, n = 0;
	const char *shell;
	int ret;

	if ((ret = pt_cli_parse(&spec, argc, argv, NULL, NULL, NULL)) >= 0)
		return ret;
	ret = 0;
	if (optind + 1 != argc)
		return pt_usage_error(&spec, "one SHELL expected: bash, zsh or fish");
	shell = argv[optind];
	if (strcmp(shell, "bash") && strcmp(shell, "zsh") && strcmp(shell, "fish"))
		return pt_usage_error(&spec, "no completion for '%s': bash, zsh or fish", shell);
	c = pt_xcalloc(pt_ncommands, sizeof(*c));
	for (i = 0; i < pt_ncommands && !ret; i++) {
		struct pt_buf help = PT_BUF_INIT;
		if (pt_commands[i].fn == cmd_completion)
			continue;
		c[n].cmd = &pt_commands[i];
		if (help_text(&pt_commands[i], &help) < 0) {
			fprintf(stderr, "proftool: completion: '%s --help' failed\n",
				pt_commands[i].name);
			ret = PT_EXIT_INPUT;
		} else {
			if (help.buf)
				parse_help(&c[n], help.buf);
		}
		n++;
		pt_buf_release(&help);
	}
	if (!ret) {
		if (!strcmp(shell, "bash"))
			bash_script(c, n, &b);
		else if (!strcmp(shell, "zsh"))
			zsh_script(c, n, &b);
		else
			fish_script(c, n, &b);
		fwrite(b.buf, 1, b.len, stdout);
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < c[i].n; j++) {
			free(c[i].v[j].name);
			free(c[i].v[j].arg);
			free(c[i].v[j].help);
		}
		free(c[i].v);
	}
	free(c);
	pt_buf_release(&b);
	return ret;
}
