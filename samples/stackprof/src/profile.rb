# Driver: profile one workload of workload.rb with stackprof and write the
# dump with StackProf.run(out: FILE), i.e. Marshal.dump(StackProf.results).
#
#   ruby -rstackprof profile.rb KIND MODE RAW INTERVAL OUT [ROUNDS]
#
# KIND: cpu | wall | object | deep | meta | custom ;
# MODE: cpu | wall | object | custom ;
# RAW: raw | noraw ; INTERVAL: microseconds (cpu/wall) or every Nth
# allocation (object).
require 'stackprof'
require_relative 'workload'

kind, mode, raw, interval, out, rounds = ARGV
abort "usage: ruby -rstackprof profile.rb KIND MODE RAW INTERVAL OUT [ROUNDS]" unless out

w = Workload.new
rounds = Integer(rounds || 10)

opts = { mode: mode.to_sym, raw: raw == 'raw', interval: Integer(interval), out: out }

if kind == 'meta'
  # Metadata is written as given; this exercises more of Marshal:
  # strings (UTF-8, US-ASCII, binary, Shift_JIS), symbols, floats,
  # a Bignum, negative integers, nil/true/false, arrays, a nested hash,
  # a hash with a default value, and a string shared twice (object link).
  shared = "shared-string"
  counts = Hash.new(0)
  counts[:hits] += 3
  opts[:metadata] = {
    app: "proftool-sample",
    label: :checkout,
    rev: "caf\u00e9".encode('UTF-8'),
    ascii: "plain".encode('US-ASCII'),
    blob: "\x00\xff\x01".b,
    sjis: "\u65e5\u672c".encode('Shift_JIS'),
    ratio: 0.25,
    big: 2**70,
    neg: -123456,
    negbig: -(2**40),
    none: nil,
    yes: true,
    no: false,
    tags: ["a", :b, 3, shared, shared],
    nested: { "request_id" => "abc-123", "n" => 42 },
    counts: counts,
  }
end

StackProf.run(**opts) do
  case kind
  when 'cpu', 'meta' then w.run_cpu(rounds)
  when 'wall' then w.run_wall(rounds)
  when 'object' then w.run_object(rounds)
  when 'deep' then w.run_deep(rounds, 250)
  when 'custom' then w.run_custom(rounds) { StackProf.sample }
  else abort "unknown kind #{kind}"
  end
end
