# gen-stackprof-deep.rb OUT SECONDS: a raw stackprof dump of a deep recursive Ruby
# workload with many distinct call paths, recorded by ruby-stackprof itself in wall
# mode every 100 us (raw: true) for SECONDS: about 1 MB of dump per second here. Thirty
# methods call one another through a walk that a seeded generator steers, from 20 to
# 180 frames deep, so stacks keep meeting new paths as the recording goes on.
require "stackprof"

out, seconds = ARGV[0], Float(ARGV[1] || 20)

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

rng = Random.new(42)
deep = Deep.new
deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
profile = StackProf.run(mode: :wall, interval: 100, raw: true) do
  deep.run(rng) while Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
end
File.binwrite(out, Marshal.dump(profile))
