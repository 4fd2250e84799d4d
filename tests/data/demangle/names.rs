// names.rs: Rust whose symbols tests/data/demangle/make.sh lists (generics, a trait
// object, a closure; the crate legacy-mangled, the std library v0).
use std::collections::HashMap;
pub struct Engine<T> { v: Vec<T> }
impl<T: Clone + std::fmt::Debug> Engine<T> {
    #[inline(never)] pub fn step(&mut self, x: T) -> usize { self.v.push(x.clone()); self.v.len() }
}
pub trait Shape { fn area(&self) -> f64; }
pub struct Sq(f64);
impl Shape for Sq { #[inline(never)] fn area(&self) -> f64 { self.0 * self.0 } }
mod inner { #[inline(never)] pub fn deep<F: Fn(u32) -> u32>(f: F) -> u32 { f(3) } }
fn main() {
    let mut e = Engine { v: Vec::new() }; e.step(1u64); let mut g = Engine{v: Vec::new()}; g.step("s".to_string());
    let s: Box<dyn Shape> = Box::new(Sq(2.0)); println!("{}", s.area());
    let mut m = HashMap::new(); m.insert(1, 2); println!("{}", inner::deep(|x| x + 1) + m.len() as u32);
}
