# deep-stack.awk: one collapsed stack D frames deep (awk -v D=600000 -f deep-stack.awk):
# "main;f1;f2;...;f6;f0;f1;..." with a count of 10, 1.8 MB at D=600,000. A flame
# graph draws one frame per level, each as wide as the whole graph.
BEGIN {
	printf "main"
	for (i = 1; i < D; i++)
		printf ";f%d", i % 7
	printf " 10\n"
}
