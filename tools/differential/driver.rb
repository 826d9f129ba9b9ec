# frozen_string_literal: true

# desk18xx differential driver: replays desk18xx's 18xx.games exports in the
# 18xx.games engine (a tobymao/18xx checkout), one long-running process.
#
#   ruby -I tools/differential -r require_all tools/differential/driver.rb REFERENCE_DIR
#
# Reads one JSON request a line on standard input:
#   {"file": "game.json", "mode": "load" | "live", "timeout": 120, "fix_city_ids": false}
# and writes one JSON answer a line on standard output:
#   {"file":, "mode":, "finished":, "end_reason":, "result": {player id: value},
#    "refused": null | {"index":, "type":, "entity":, "message":},
#    "timeout": false, "seconds":, "client_auto": [...],
#    "trace": [[{player: cash}, {corp: price}, "acting entity/step"], ...]}
# "trace" has one entry after each action the engine took (0-based export index).
#
# Modes:
#   load  Engine::Game.load of the whole export (loading mode, as a reloaded game).
#   live  Engine::Game.load(data, actions: [], strict: true), then process_action of
#         each action in turn with add_auto_actions (loading off, as the browser
#         client plays); see `live` for the actions the client plays by itself.

require 'json'
require 'set'
require 'timeout'
ENV['ENGINE_LOG_LEVEL'] ||= '4'
require File.join(ARGV.fetch(0), 'lib', 'engine')

# Records the state after every top-level process_action (loading mode included).
module DifferentialTrace
  def process_action(*args, **kwargs)
    out = super
    DifferentialTrace.hook&.call(self)
    out
  end

  class << self
    attr_accessor :hook
  end
end
Engine::Game::Base.prepend(DifferentialTrace)

def acting(game)
  step = game.round&.active_step
  entity = step&.current_entity
  return nil if game.finished || !entity

  "#{entity.id}/#{step.class.name.split('::').last}"
end

def snapshot(game)
  cash = game.players.to_h { |p| [p.id.to_s, p.cash] }
  prices = {}
  (game.corporations + (game.minors || [])).uniq.each do |c|
    next if c.closed?
    # a corporation object the game has replaced (1867's reset_corporation; D31:
    # event_minors_nationalized! restores its old list) is no company any more:
    # an action naming it reaches the new object, the market no longer holds it
    next if c.corporation? && !game.corporation_by_id(c.id).equal?(c)

    price = c.share_price&.price
    prices[c.id.to_s] = price if price
  end
  [cash, prices, acting(game)]
end

def refusal(game, index, actions)
  return nil unless game.exception

  action = actions[index] || {}
  { 'index' => index, 'type' => action['type'], 'entity' => action['entity'],
    'message' => game.exception.message.to_s[0, 400] }
end

# The 18xx.games client processes an action with add_auto_actions and sends the
# actions its round then plays by itself (a pass where nothing can be done, a
# destination token) along with it.  Our log writes such actions separately:
# when they are the ones the reference played by itself they are skipped (their
# trace entries are null).  When they are not (we ask a question the client
# answers by itself), the game goes on as the server would take our log: the
# actions so far reloaded, the next one processed without the client's choice;
# each such place is returned in `notes`.
def same_action?(auto, ours)
  auto.except('id', 'created_at', 'auto_actions', 'user').all? { |k, v| ours[k].to_s == v.to_s }
end

def live(data, actions, trace, notes)
  game = Engine::Game.load(data, actions: [], strict: true)
  DifferentialTrace.hook = ->(g) { trace << snapshot(g) unless g.exception }
  index = 0
  while index < actions.size
    game.process_action(actions[index].dup, add_auto_actions: true)
    refused = refusal(game, index, actions)
    if refused
      # would the action pass with the route graph rebuilt? (the reference's
      # cached graph goes stale in live play: docs/divergences.md D41)
      game.instance_variable_set(:@exception, nil)
      game.clear_graph
      game.process_action(actions[index].dup, add_auto_actions: true)
      refused['accepted_after_graph_clear'] = game.exception.nil?
      return [game, refused]
    end

    autos = game.raw_actions.last['auto_actions'] || []
    if autos.each_with_index.all? { |auto, k| actions[index + 1 + k] && same_action?(auto, actions[index + 1 + k]) }
      snap = trace.pop
      autos.size.times { trace << nil }
      trace << snap
      index += 1 + autos.size
      next
    end
    notes << { 'index' => index + 1, 'client' => autos.map { |a| a.except('created_at') },
               'ours' => actions[index + 1] }
    trace.pop
    DifferentialTrace.hook = nil
    game = Engine::Game.load(data, actions: actions[0..index])
    refused = refusal(game, index, actions)
    return [game, refused] if refused

    trace << snapshot(game)
    DifferentialTrace.hook = ->(g) { trace << snapshot(g) unless g.exception }
    index += 1
  end
  [game, nil]
end

# With "fix_city_ids": desk18xx exports (before issue 16's fix) name a city on a
# printed tile "E15-0-0" where the reference's printed tile is "E15-3" (its place
# in the title's hex list); rewrite such ids to the reference's, so that the rest
# of a game can be compared.  A preview aid only: off by default.
def fix_city_ids(data)
  fresh = Engine::Game.load(data, actions: [])
  data['actions'].each do |action|
    city = action['city']
    next unless city.is_a?(String) && (m = city.match(/\A([A-Z]+\d+)-0-(\d+)\z/))

    hex = fresh.hex_by_id(m[1])
    tile = hex&.tile
    next if !tile || tile.name != m[1] || fresh.city_by_id(city)

    action['city'] = tile.cities[m[2].to_i]&.id || city
  end
  data
end

def run(request)
  data = JSON.parse(File.read(request.fetch('file')))
  data = fix_city_ids(data) if request['fix_city_ids']
  actions = data['actions'] || []
  trace = []
  notes = []
  game = nil
  refused = nil
  timed_out = false
  start = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  begin
    Timeout.timeout(request.fetch('timeout', 300).to_f) do
      if request.fetch('mode') == 'load'
        DifferentialTrace.hook = ->(g) { trace << snapshot(g) unless g.exception }
        game = Engine::Game.load(data)
        refused = refusal(game, trace.size, actions)
      else
        game, refused = live(data, actions, trace, notes)
      end
    end
  rescue Timeout::Error
    timed_out = true
  rescue StandardError => e
    refused = { 'index' => trace.size, 'type' => actions.dig(trace.size, 'type'),
                'entity' => actions.dig(trace.size, 'entity'),
                'message' => "#{e.class}: #{e.message}"[0, 400] }
  ensure
    DifferentialTrace.hook = nil
  end
  {
    'file' => request['file'], 'mode' => request['mode'],
    'finished' => game&.finished ? true : false,
    'end_reason' => game&.game_end_reason&.to_s,
    'result' => game&.finished ? game.result.to_h { |k, v| [k.to_s, v] } : nil,
    'refused' => refused, 'timeout' => timed_out, 'client_auto' => notes,
    'seconds' => (Process.clock_gettime(Process::CLOCK_MONOTONIC) - start).round(3),
    'trace' => trace,
  }
end

$stdout.sync = true
puts JSON.generate({ 'ready' => true, 'reference' => ARGV[0] })
$stdin.each_line do |line|
  next if line.strip.empty?

  request = JSON.parse(line)
  answer = begin
    run(request)
  rescue StandardError => e
    { 'file' => request['file'], 'mode' => request['mode'], 'error' => "#{e.class}: #{e.message}" }
  end
  puts JSON.generate(answer)
end
