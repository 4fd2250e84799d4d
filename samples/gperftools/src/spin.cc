// spin.cc: a small C++ program for the gperftools samples: a hot loop under two
// callers (CPUPROFILE=), strings and a map allocated (HEAPPROFILE=, growth stacks).
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>
#include <gperftools/malloc_extension.h>

namespace work {
template <typename T> struct Acc {
	T total = 0;
	__attribute__((noinline)) void add(T v) { total += v * v % 7; }
};

__attribute__((noinline)) long inner(long n)
{
	Acc<long> a;
	for (long i = 0; i < n; i++)
		a.add(i);
	return a.total;
}

__attribute__((noinline)) long outer(long n)
{
	long s = 0;
	for (int k = 0; k < 4; k++)
		s += inner(n);
	return s;
}

__attribute__((noinline)) std::vector<std::string> *make_strings(int n)
{
	auto *v = new std::vector<std::string>();
	for (int i = 0; i < n; i++)
		v->push_back(std::string(100 + i % 50, 'x'));
	return v;
}

__attribute__((noinline)) std::map<int, double> *make_map(int n)
{
	auto *m = new std::map<int, double>();
	for (int i = 0; i < n; i++)
		(*m)[i] = i * 0.5;
	return m;
}
} // namespace work

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000000;
	long s = work::outer(n);
	auto *v = work::make_strings(20000);
	auto *m = work::make_map(20000);
	delete m;
	/* SPIN_DUMP=PREFIX: tcmalloc's own heap sample and growth stacks, as pprof's
	 * /pprofz handlers serve them */
	if (const char *pre = getenv("SPIN_DUMP")) {
		std::string heap, growth;
		MallocExtension::instance()->GetHeapSample(&heap);
		MallocExtension::instance()->GetHeapGrowthStacks(&growth);
		FILE *f = fopen((std::string(pre) + ".heap").c_str(), "w");
		fputs(heap.c_str(), f);
		fclose(f);
		f = fopen((std::string(pre) + ".growth").c_str(), "w");
		fputs(growth.c_str(), f);
		fclose(f);
	}
	printf("%ld %zu\n", s, v->size());
	return 0;
}
