# gen-rubyheap.rb: three large Ruby heap dumps of one process for `make bench` (group
# "rubyheap"), made by ruby itself with allocation tracing on: a store of N objects
# (orders with their line items, strings and a struct, about 8 objects an order), then
# the same after N/10 more orders are kept (the leak), then after N/10 more again.
# Usage: ruby --disable-gems gen-rubyheap.rb PREFIX OBJECTS  (writes PREFIX-1.json ...)
require "objspace"

Point = Struct.new(:x, :y)

class Order
  def initialize(id)
    @id = id
    @lines = Array.new(3) { |i| "sku-#{id}-#{i}" }
    @where = Point.new(id, -id)
    @meta = { id: id, note: "order #{id}" }
  end
end

def dump(path)
  GC.start(full_mark: true, immediate_sweep: true)
  File.open(path, "w") { |f| ObjectSpace.dump_all(output: f) }
end

prefix = ARGV[0] or abort "usage: gen-rubyheap.rb PREFIX OBJECTS"
orders = [(ARGV[1] || "1000000").to_i / 8, 10].max
ObjectSpace.trace_object_allocations_start
store = []
orders.times { |i| store << Order.new(i) }
dump("#{prefix}-1.json")
(orders / 10).times { |i| store << Order.new(orders + i) }
dump("#{prefix}-2.json")
(orders / 10).times { |i| store << Order.new(orders * 2 + i) }
dump("#{prefix}-3.json")
