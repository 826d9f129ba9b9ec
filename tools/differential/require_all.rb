# frozen_string_literal: true

# A stand-in for the require_all gem, which the 18xx.games engine (lib/engine.rb)
# loads its titles with and which Debian does not package.  It loads only the
# titles desk18xx plays (and the files they depend on), retrying a file whose
# constants are not defined yet.  Same stand-in as benchmarks/reference.py.

ALLOWED_TITLES = %w[g_1867 g_1822 g_1822_ca g_1822_ca_ers g_1822_ca_wrs].freeze

def require_all(*paths)
  files = paths.flatten.flat_map do |p|
    File.directory?(p) ? Dir.glob(File.join(p, '**', '*.rb')).sort : [p]
  end
  files = files.map { |f| File.expand_path(f) }.select do |f|
    m = f.match(%r{/engine/game/(g_[^/.]+)})
    m.nil? || ALLOWED_TITLES.include?(m[1])
  end
  pending = files
  loop do
    failed = pending.reject do |f|
      require f
      true
    rescue NameError
      false
    end
    break if failed.empty?
    raise "cannot load #{failed.first}" if failed.size == pending.size

    pending = failed
  end
end

def require_rel(*paths)
  base = File.dirname(caller_locations(1, 1)[0].absolute_path)
  require_all(*paths.flatten.map { |p| File.expand_path(p, base) })
end
