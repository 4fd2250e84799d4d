# Workloads profiled by stackprof for proftool's samples (see ../README).
# The shape is fixed (the same methods run on every run); only the sample
# counts vary with timing.
#
#  - direct recursion:   Workload#fib, Workload#descend
#  - mutual recursion:   Workload#ping -> Workload#pong -> Workload#ping ...
#  - a hot leaf:         Workload#hot_leaf (called from many places)
#  - several callers of one function: caller_a, caller_b, caller_c -> hot_leaf
#  - garbage:            Workload#churn keeps a big live heap and allocates
#                        a lot, so GC frames show up in cpu/wall profiles
#  - sleeping:           Workload#nap (wall mode differs from cpu mode)
class Workload
  def initialize
    @live = []
  end

  # the hot leaf: pure arithmetic, no allocation
  def hot_leaf(n)
    s = 0
    i = 0
    while i < n
      s += (i * i) % 7
      i += 1
    end
    s
  end

  # direct recursion
  def fib(n)
    if n < 2
      hot_leaf(40)
    else
      fib(n - 1) + fib(n - 2)
    end
  end

  # mutual recursion A -> B -> A -> B
  def ping(n)
    return hot_leaf(40_000) if n.zero?
    hot_leaf(20_000)
    pong(n - 1)
  end

  def pong(n)
    return hot_leaf(40_000) if n.zero?
    hot_leaf(20_000)
    ping(n - 1)
  end

  # several callers of one function
  def caller_a
    hot_leaf(60_000)
  end

  def caller_b
    hot_leaf(40_000) + hot_leaf(20_000)
  end

  def caller_c
    caller_a + hot_leaf(10_000)
  end

  # deep direct recursion
  def descend(depth, work)
    if depth.zero?
      hot_leaf(work)
    else
      descend(depth - 1, work)
    end
  end

  # allocation-heavy: builds garbage on top of a big live heap
  def churn(rounds)
    @live = Array.new(200_000) { |i| "live-#{i}" } if @live.empty?
    rounds.times do |r|
      tmp = []
      2_000.times { |i| tmp << "tmp-#{r}-#{i}" << [r, i] }
      @live[r % @live.size] = tmp.last
    end
    GC.start
  end

  # allocation of a few distinct kinds (for object mode)
  def make_strings(n)
    n.times.map { |i| "s#{i}" }
  end

  def make_arrays(n)
    Array.new(n) { |i| [i, i + 1] }
  end

  def make_hashes(n)
    Array.new(n) { |i| { i => i } }
  end

  def nap(seconds)
    sleep(seconds)
  end

  # one round of the cpu workload
  def cpu_round
    fib(20)
    ping(12)
    caller_a
    caller_b
    caller_c
  end

  def run_cpu(rounds)
    rounds.times do |r|
      cpu_round
      churn(20) if (r % 4).zero?
    end
  end

  def run_wall(rounds)
    rounds.times do
      cpu_round
      nap(0.02)
    end
  end

  def run_object(rounds)
    rounds.times do
      make_strings(300)
      make_arrays(200)
      make_hashes(100)
      ping(6)
    end
  end

  # custom mode: the caller passes a block that takes a sample
  def countdown(n, &probe)
    probe.call
    countdown(n - 1, &probe) unless n.zero?
  end

  def run_custom(rounds, &probe)
    rounds.times do
      countdown(5, &probe)
      hot_leaf(1000)
      probe.call
    end
  end

  def run_deep(rounds, depth)
    rounds.times { descend(depth, 20_000) }
  end
end
