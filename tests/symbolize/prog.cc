/* prog.cc: t4220's program, built with g++ -O2 -g at test time and profiled by
 * libprofiler: mix is inlined into Engine::step (always_inline, with a linkage name,
 * which binutils' addr2line needs to name an inlined frame as DWARF does), step and
 * the template twice are calls of their own. */
#include <cstdio>
#include <cstdlib>
namespace ns {
inline __attribute__((always_inline)) unsigned mix(unsigned x)
{
	for (int i = 0; i < 50; i++)
		x = x * 2654435761u + (x >> 13);
	return x;
}
struct Engine {
	unsigned state = 1;
	__attribute__((noinline)) unsigned step(unsigned n)
	{
		for (unsigned i = 0; i < n; i++)
			state = mix(state + i);
		return state;
	}
};
template <typename T> __attribute__((noinline)) T twice(T v, Engine &e)
{
	return e.step(v) + e.step(v / 2);
}
} // namespace ns
__attribute__((noinline)) unsigned outer(unsigned n)
{
	ns::Engine e;
	unsigned r = 0;
	for (unsigned k = 0; k < n; k++)
		r += ns::twice<unsigned>(2000, e);
	return r;
}
int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 3000;
	printf("%u\n", outer(n));
	return 0;
}
