# leaky.rb: a small program for proftool's Ruby heap samples: a few classes, a
# cache that only grows (the leak), and ObjectSpace.dump_all at the end.
# Usage: ruby --disable-gems leaky.rb OUT [ROUNDS] [TRACE]
require "objspace"

Point = Struct.new(:x, :y)

class Order
  def initialize(id)
    @id = id
    @lines = Array.new(3) { |i| LineItem.new("sku-#{id}-#{i}", i + 1) }
    @where = Point.new(id, id * 2)
  end
end

class LineItem
  def initialize(sku, qty)
    @sku = sku
    @qty = qty
  end
end

module Cache
  STORE = {}
  def self.remember(key, value)
    STORE[key] = value # never evicted: the leak
  end
end

out = ARGV[0] or abort "usage: leaky.rb OUT [ROUNDS] [TRACE]"
rounds = (ARGV[1] || "200").to_i
ObjectSpace.trace_object_allocations_start if ARGV[2] != "notrace"

rounds.times do |i|
  order = Order.new(i)
  Cache.remember("order-#{i}", order) if i.even?
  "temporary #{i}" * 3 # garbage
end

GC.start
File.open(out, "w") { |f| ObjectSpace.dump_all(output: f) }
