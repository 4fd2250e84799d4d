// prog.rs: t4240's program, built with rustc -C opt-level=2 -g at test time (legacy
// and, where rustc has it, v0 symbol mangling) and profiled by perf: mix is inlined
// into Engine::step, which outer calls; the argument sets how long it runs.
mod engine {
    #[inline(always)]
    fn mix(mut x: u64) -> u64 {
        for _ in 0..50 {
            x = x.wrapping_mul(2654435761).wrapping_add(x >> 13);
        }
        x
    }

    pub struct Engine {
        pub state: u64,
    }

    impl Engine {
        #[inline(never)]
        pub fn step(&mut self, n: u64) -> u64 {
            for i in 0..n {
                self.state = mix(self.state.wrapping_add(i));
            }
            self.state
        }
    }
}

#[inline(never)]
fn outer(n: u64) -> u64 {
    let mut e = engine::Engine { state: 1 };
    let mut r = 0u64;
    for _ in 0..n {
        r = r.wrapping_add(e.step(2000));
    }
    r
}

fn main() {
    let n = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(300);
    println!("{}", outer(n));
}
