# gen-stackprof-deep.rb OUT SIZE: a raw stackprof dump of a deep recursive Ruby
# workload with many distinct call paths, recorded by ruby-stackprof itself in wall
# mode every 100 us (raw: true). SIZE is either a recording length in seconds of the
# recorder's CPU time ("20"), or a dump size in MB ("20MB"). The recording runs for CPU
# time, not wall time: on a busy machine the process waits, and a wall-mode sample that
# falls due while it waits is missed, so a wall-time budget gives dumps of any size
# while a CPU-time one gives about the same one (5-6 MB a CPU second here). For a size
# the recording is repeated, its length scaled by how far the last dump fell from the
# size, until a dump lands within 5% below to 15% above it (at most 6 tries; the
# closest is kept). Thirty methods call one another through a walk that a seeded
# generator steers, from 20 to 180 frames deep, so stacks keep meeting new paths as
# the recording goes on.
require "stackprof"

out, size = ARGV[0], (ARGV[1] || "20")

class Deep
  # methods of their own (define_method would give them one shared block frame)
  30.times do |k|
    class_eval <<~RUBY, __FILE__, __LINE__ + 1
      def step_#{k}(depth, rng)
        if depth.zero?
          s = 0
          i = 0
          while i < 40
            s += i * #{k}
            i += 1
          end
          s
        else
          case rng.rand(3)
          when 0 then step_#{(k + 1) % 30}(depth - 1, rng)
          when 1 then step_#{(k + 2) % 30}(depth - 1, rng)
          else step_#{(k + 3) % 30}(depth - 1, rng)
          end
        end
      end
    RUBY
  end

  def run(rng)
    send("step_#{rng.rand(30)}", 20 + rng.rand(160), rng)
  end
end

# one recording of SECONDS of CPU time, Marshal-dumped as the stackprof CLI reads it
def record(seconds)
  rng = Random.new(42)
  deep = Deep.new
  deadline = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) + seconds
  profile = StackProf.run(mode: :wall, interval: 100, raw: true) do
    deep.run(rng) while Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) < deadline
  end
  Marshal.dump(profile)
end

if (m = /\A([0-9.]+)\s*MB?\z/i.match(size))
  target = Float(m[1]) * 1_000_000
  seconds = target / 6_000_000.0 # about 5-6 MB a CPU second: start short of it
  best = nil
  6.times do
    dump = record(seconds)
    best = dump if best.nil? || (dump.bytesize - target).abs < (best.bytesize - target).abs
    ratio = dump.bytesize / target
    warn format("gen-stackprof-deep: %.1f s recorded %.1f MB (target %.1f MB)",
                seconds, dump.bytesize / 1e6, target / 1e6)
    break if ratio >= 0.95 && ratio <= 1.15
    seconds *= [[1.05 / ratio, 4.0].min, 0.25].max
  end
  File.binwrite(out, best)
else
  File.binwrite(out, record(Float(size)))
end
