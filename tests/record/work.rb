# work.rb: a Ruby program for `proftool record` tests: hot_method takes most of the time.
def hot_method(n)
  s = 0
  i = 0
  while i < n
    s += i * i
    i += 1
  end
  s
end

def cold_method
  1 + 1
end

30.times { hot_method(300_000); cold_method }
puts "ruby done"
exit 4
