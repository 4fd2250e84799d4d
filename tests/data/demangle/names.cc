// names.cc: C++ whose symbols tests/data/demangle/make.sh lists (templates, operators,
// an anonymous namespace, a lambda, std::string and std::map, a variadic template).
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include <cstdio>
namespace ns {
template <typename T, int N> struct Box {
	T v[N];
	__attribute__((noinline)) T sum() const { T s{}; for (int i = 0; i < N; i++) s += v[i]; return s; }
	bool operator<(const Box &o) const { return sum() < o.sum(); }
	Box &operator<<(T x) { v[0] = x; return *this; }
};
class Engine {
public:
	Engine() : n(0) {}
	virtual ~Engine() {}
	__attribute__((noinline)) void step(const std::string &s, std::vector<int> &v) { n += s.size() + v.size(); }
	__attribute__((noinline)) static int apply(int (*f)(int), int x) { return f(x); }
	long n;
};
}
namespace {
__attribute__((noinline)) int twice(int x) { return 2 * x; }
}
template <typename... A> __attribute__((noinline)) size_t count_args(A... a) { return sizeof...(a); }
__attribute__((noinline)) std::map<std::string, std::vector<int>> build(int n)
{
	std::map<std::string, std::vector<int>> m;
	for (int i = 0; i < n; i++) m[std::to_string(i)].push_back(i);
	return m;
}
int main(int argc, char **)
{
	ns::Box<double, 3> b{{1, 2, 3}}; ns::Box<double, 3> c{{1, 2, 4}};
	b << 2.0;
	ns::Engine e; std::vector<int> v{1};
	e.step("x", v);
	auto f = [argc](int k) { return k + argc; };
	std::function<int(int)> g = f;
	auto p = std::make_shared<ns::Engine>();
	printf("%d %f %d %zu %zu %d\n", b < c, b.sum(), ns::Engine::apply(twice, 3), count_args(1, 'c', 2.0), build(3).size(), g(1));
	return 0;
}
