#!/bin/sh
# make.sh: the mangled names of a real g++ and rustc build (Debian 12's g++ 12, rustc
# 1.95 from rustup, whose own crate is legacy-mangled and whose std is v0), as nm lists
# them: every C++ name, every legacy Rust name, every 8th v0 one; then c++filt's reading.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
g++ -O2 -g -o "$tmp/cc" names.cc
rustc -O -g -o "$tmp/rs" names.rs
{
	nm "$tmp/cc" | awk '{ print $NF }' | grep '^_Z' | LC_ALL=C sort -u
	nm "$tmp/rs" | awk '{ print $NF }' | grep '^_ZN' | LC_ALL=C sort -u
	nm "$tmp/rs" | awk '{ print $NF }' | grep '^_R' | LC_ALL=C sort -u | awk 'NR % 8 == 1'
} >names.txt
c++filt <names.txt >names.c++filt.txt
