# gen-stackprof.rb OUT COPIES: a large raw stackprof dump made from the real
# samples/stackprof/wall-raw.dump: its raw runs and timestamp deltas repeated COPIES
# times (as a long recording of the same program would), counts updated to match.
src = File.expand_path("../samples/stackprof/wall-raw.dump", __dir__)
out, copies = ARGV[0], Integer(ARGV[1] || 100)
d = Marshal.load(File.binread(src))
d[:raw] = d[:raw] * copies
d[:raw_timestamp_deltas] = d[:raw_timestamp_deltas] * copies if d[:raw_timestamp_deltas]
d[:raw_sample_timestamps] = d[:raw_sample_timestamps] * copies if d[:raw_sample_timestamps]
d[:samples] *= copies
d[:gc_samples] *= copies
d[:frames].each_value do |f|
  f[:samples] *= copies
  f[:total_samples] *= copies
  f[:edges]&.transform_values! { |v| v * copies }
  f[:lines]&.transform_values! { |v| v.is_a?(Array) ? v.map { |x| x * copies } : v * copies }
end
File.binwrite(out, Marshal.dump(d))
