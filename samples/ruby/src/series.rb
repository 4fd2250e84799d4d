# series.rb: three heap dumps of one process, for proftool's leak verdict (heap
# --leaks): a baseline, then after a request handler that leaks has run ROUNDS times,
# then after it has run ROUNDS times more (memlab's baseline, target and final).
# Usage: ruby --disable-gems series.rb PREFIX [ROUNDS]  (writes PREFIX-1.json ... -3.json)
require "objspace"

class Session
  def initialize(id)
    @id = id
    @token = "token-#{id}"
    @tags = [:new, id]
  end
end

module Registry
  ALL = [] # sessions are registered and never removed: the leak
end

def handle(i)
  session = Session.new(i)
  Registry::ALL << session if i % 3 == 0
  body = "scratch #{i} " * 4 # garbage once the request is done
  { id: i, body: body }.size
end

def dump(path)
  GC.start(full_mark: true, immediate_sweep: true)
  File.open(path, "w") { |f| ObjectSpace.dump_all(output: f) }
end

prefix = ARGV[0] or abort "usage: series.rb PREFIX [ROUNDS]"
rounds = (ARGV[1] || "60").to_i
ObjectSpace.trace_object_allocations_start
3.times { |i| handle(-1 - i) } # warm up the handler's code paths
dump("#{prefix}-1.json")
rounds.times { |i| handle(i) }
dump("#{prefix}-2.json")
rounds.times { |i| handle(rounds + i) }
dump("#{prefix}-3.json")
