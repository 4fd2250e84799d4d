// small.cc: a small C++ file for samples/traceevents/clang.trace.json (clang
// -ftime-trace): standard headers to parse, class templates to instantiate, and a
// recursive template that the compiler unrolls.
#include <map>
#include <string>
#include <vector>

template <int N> struct Fib {
	static const int value = Fib<N - 1>::value + Fib<N - 2>::value;
};
template <> struct Fib<1> {
	static const int value = 1;
};
template <> struct Fib<0> {
	static const int value = 0;
};

int main()
{
	std::map<std::string, std::vector<int>> m;
	m["a"].push_back(Fib<20>::value);
	return (int)m.size();
}
