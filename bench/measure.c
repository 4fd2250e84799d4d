/* measure.c: run a command, report its wall time and peak RSS (getrusage of the child).
 * usage: measure [-i INPUT] [-o OUTPUT] -- CMD ARGS...
 * prints "WALL_SECONDS MAXRSS_KIB EXIT CPU_SECONDS" (user + system) on stdout. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *in = NULL, *out = "/dev/null";
	struct timespec t0, t1;
	struct rusage ru;
	int status, i = 1;
	pid_t pid;

	for (; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "-i") && i + 1 < argc)
			in = argv[++i];
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
	}
	if (i + 1 >= argc) {
		fprintf(stderr, "usage: measure [-i IN] [-o OUT] -- CMD ARGS...\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid == 0) {
		int fd;
		if (in && (fd = open(in, O_RDONLY)) >= 0)
			dup2(fd, 0);
		if ((fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0)
			dup2(fd, 1);
		execvp(argv[i + 1], argv + i + 1);
		perror(argv[i + 1]);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0) {
		perror("measure");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%.3f %ld %d %.3f\n",
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
	       ru.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
	       (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
		       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
	return 0;
}
