/**
 * Concepts: words and spoken phrases that say the same thing in an interview answer, so a key
 * point and a plain-word paraphrase meet ("n squared" and "quadratic", "tidy up" and "clean-up",
 * "rarely changes" and "low-frequency"). A word may belong to several concepts; matching asks
 * whether a key point's word and the candidate's word share one (see server/rater/text-match.ts
 * and docs/question-sets.md, "How answers are judged").
 *
 * This is a general list for software interviews, not a list of answers: each line must hold for
 * any question it could touch. Per-question wordings belong in a question set's "Also accepted".
 * Still, every concept is only one requirement of a key point: the point's other words must be
 * said in the same statement too.
 *
 * Format: `concept: word, word, a phrase, ...`. Single words are compared by stem, so one form
 * covers its inflections; phrases (several words) are matched as word sequences in the answer.
 */
const CONCEPTS = `
prevent: prevent, prevention, avoid, forbid, disallow, stop, guard against, protect, protection, otherwise, or else
prefer: prefer, preference, favour, default, always use, always go for, reach for, go for, go with, opt for, stick with, stick to, first choice, by default
scope: scope, confine, anywhere inside, anywhere in, once you leave, outside the block, only inside, disappear once, visible, visibility, belong, attach, lives in, live in, live inside, lives inside, only live, only lives, exist in, exists in, exist inside, exists inside, only exist, only exists, environment, where it was made, where it was created, where it was defined, where it was declared
brace: brace, bracket, curly
execute: execute, execution, run, runs through, run through, go through, goes through
loopbody: body, block, loop body, block of code, code block, the code inside, the loop
atleastonce: at least once, always once, always run once, always runs once, always run through once, always runs through once, always execute once, always executes once, always go through once, always goes through once, one or more times
private: private, privacy, hidden, hide, encapsulate, encapsulation, secret, nobody else, no one else, nothing else can, nothing else could, from outside, one on one, one to one, in private, privately
lexical: lexical, surrounding, enclosing, outer
create: create, generate, define, declare, born, made
pause: pause, suspend, halt, wait, stop, block
settle: settle, finish, complete, done, resolve, come back, comes back, returns, to the end, all the way to the end, all the way through, till the end, until the end
fulfil: fulfil, fulfill, resolve, succeed, success, successful
reject: reject, fail, throw, throws
pending: pending, wait, waiting, in progress, unresolved, unsettled, not finished, not done
error: error, exception, failure, fail, fault, bug, mistake, crash, problem
remove: remove, delete, drop, evict, clear, unsubscribe, detach, dispose, take off, took off, taken off, takes off, get rid of, purge, bust, invalidate, throw out, threw out, take out
clean: clean, cleanup, tidy, tear down, teardown, dispose, clean up, tidy up
unmount: unmount, goes away, go away, destroyed, disappears, removed from the page, leaves the page
grow: grow, growth, increase, rise, climb, balloon, expand, keeps growing, goes up, more and more, pile up, got bigger, gets bigger, much bigger, grew, grown
large: large, big, huge, massive, heavy, giant, bigger, larger
many: many, multiple, several, lots, loads, numerous, bunch
slow: slow, sluggish, laggy, slower
fast: fast, quick, speed, rapid, snappy, faster, quicker, cheap
customer: customer, user, client, people
stakeholder: stakeholder, manager, boss, product manager, product owner, pm, client, lead, leadership, management, business, team lead, tech lead
communicate: communicate, communication, talk, talk to, spoke, speak, chat, sat down with, tell, told, inform, informed, update, let know, flag, flagged, heads up, post, posted, announce, share, raise, raised, escalate, status update, status note, status email, status report, progress update, progress report
early: early, immediately, straight away, right away, promptly, asap, as soon as
regular: regular, regularly, daily, weekly, every day, every week, frequent, routine, periodic, often, every morning, every afternoon, every evening, each day, each week, every standup, every sprint
requirement: requirement, require, must, must have, must haves, needs, need, has to, had to, have to, essential, needed, critical, core
clarify: clarify, clarification, ask, asked, asking, question, confirm, find out, found out, establish, understand, pin down, want to know, wanted to know, need to know
prioritise: prioritise, priority, rank, most important, important, triage, urgent, urgency, ordered, first
split: split, break, divide, chunk, break down, break up, piece, pieces, smaller, small
cut: cut, trim, descope, defer, postpone, push back, pushed back, nice to have, later, after, drop, dropped
negotiate: negotiate, negotiation, push back, pushed back, agree, agreed, discuss, compromise, trade off, tradeoff, trade
help: help, assist, support, colleague, teammate, hand off, delegate, take off my plate, pair, pairing, another team
quality: quality, test, testing, tests, review, correctness, reliable
result: result, outcome, day before, on time, impact, improved, improve, reduced, saved, saves, dropped, went down, halved, doubled, went from, ended up, shipped, ship, delivered, deliver, went live, achieved, answer, effect, fell, fell by, dropped by, went down by
learn: learn, lesson, takeaway, took away, take away, taught me, took from, realise, realize, taught, since then, now i, from then on
change: change, after that, update, modify, alter, adjust, switch, started, start, began, now
mutation: change, changed, modify, alter, push, edit
approach: behaviour, habit, approach, process, practice, routine, way i work, how i work, the way i, started, i now, now i always
measure: measure, measurable, metric, number, percent, percentage, went from, reduce, reduced, cut, figure, kpi, stat, stats, dropped, halved, doubled, quantify, fell by, dropped by
reason: reason, reasoning, why, perspective, motive, motivation, concern, worry, worried, coming from, point of view, side
evidence: evidence, data, numbers, metric, benchmark, proof, fact, facts, measurement, spike, prototype, graph, dashboard
alternative: alternative, compromise, option, suggest, suggested, propose, proposed, middle ground, instead, revisit
commit: commit, committed, back it, backed it, get behind, go along, went along, support it, supported it, went ahead, go ahead
cause: cause, root, reason, came down to, comes down to, due to, underlying, real problem, turned out, because
own: own, owned, ownership, on me, my fault, responsibility, responsible, accountable, led, i led, my idea, my part, i built, i designed, i wrote
recover: recover, recovery, fix, rescue, back on track, salvage, mitigate, new plan, replan, revised plan, made a new plan
afterwards: afterwards, after that, since then, from then on, ever since, these days, nowadays, now, going forward, every project, every time
plan: plan, schedule, roadmap, timeline, checkpoint, milestone, estimate
deadline: deadline, on time, in time, due date, ahead of, day before, before the deadline, early
reflect: reflect, reflection, hindsight, looking back, did it again, do it again, next time, differently, would change, if i did, would have
mentor: mentor, coach, teach, junior, juniors, pass on, pass it on, train, onboard, give the same advice
feedback: feedback, advice, comment, comments, criticism, review, told me, was told, pointed out, piece of feedback
openly: openly, open, on board, receptive, took it well, listen, listened, accept, accepted, thanked
problem: problem, pain, issue, complain, complaint, struggle, losing, broken, frustrating, spending hours, spent hours, wasting time, wasted time, manual work, by hand, waited days, took days, pain point
matter: matter, mattered, important, value, valuable, impact, why
decision: decision, decide, decided, choose, chose, pick, picked, option, alternative, over, instead of, trade
bring: bring, brought, brought others along, bring others along, brought people along, bringing people along, convince, persuade, adopt, adopted, on board, buy in, demo, demoed, rally, present, presented, got other teams, other teams
quadratic: quadratic, n squared, n 2, squared
linear: linear, o of n, o n, order n, proportional
constant: constant, o of 1, o 1, order 1, no matter the size, no matter how big, regardless of the size, regardless of size, whatever the size
logarithmic: logarithmic, log n, log, halving, halve, binary search
exponential: exponential, 2 to the n, two to the n, 2 n
nested: nested, inside a loop, loop in a loop, loop inside a loop, loop within a loop, two loops, double loop, every pair, each pair, inner loop
brute: brute, naive, try every, every pair, check every, exhaustive, all pairs
complement: complement, target minus, minus the, difference, what you'd need, what you need, what it'd need, what it would need
seen: seen, visited, been to, already seen, already visited, keep track, kept track, remember
queue: queue, fifo, line up
stack: stack, lifo, call stack
level: level, layer, ring, neighbours first, neighbors first, breadth, wave, frontier
deep: deep, depth, as far as, far as it can, deeper, one path
shortest: shortest, fewest, least number, closest, minimum steps, fewest steps, fewest hops
backtrack: backtrack, backing up, back up, go back, goes back, puzzle, undo
cycle: cycle, cyclic, circular, loop forever, infinite loop, loops forever, going round
memory: memory, space, ram, heap, storage
worst: worst, upper bound, upper limit, at most, no more than, not more than, ceiling, pessimistic, bad case, degrades to, degrade to, degrading to
ignore: ignore, drop, discard, throw away, disregard, leave out
lower: lower, smaller, minor, less significant, lesser
bucket: bucket, slot, array of buckets
collision: collision, clash, already taken, taken, already exists, exists already, collide, same bucket, same slot, land in the same, same index, conflict
chain: chain, chaining, linked list, little list, keep a list
probe: probe, probing, next free, open addressing, next slot, next empty
resize: resize, rehash, double the size, doubles, three quarters full, bigger array, re insert, reinsert, too full, fills up, load factor, grow the array, allocate, allocates
ordered: ordered, order, sequence, position, positional, in order, iterate, iteration, traverse, go through
count: count, counting, counter, frequency, tally, how often, how many times
deduplicate: deduplicate, dedupe, de duplication, remove duplicates, removing duplicates, unique, distinct
lookup: lookup, look up, looking up, find, search, retrieve, access, fetch, not found, isn't found, see if, check if, check whether
insert: insert, add, put, push, append
subproblem: subproblem, sub problem, smaller problem, smaller problems, smaller version, smaller versions, smaller case, smaller cases, subtask, parts, substructure, smaller ones
reuse: reuse, save, store, cache, remember, memo, don't work them out again, not recompute, recompute
overlap: overlap, overlapping, repeat, repeated, over and over, keep coming up, keeps coming up, again and again, come up again, same smaller, same subproblems, recompute
optimal: optimal, best, optimum, optimise
topdown: top down, topdown, memoise, recurse, recursion, recursive, recursively, recursing
bottomup: bottom up, bottomup, tabulation, table, fill in, filling in, iterative, iteratively
recurrence: recurrence, depends on, transition, relation, formula, relationship, built from smaller, built from the smaller, in terms of smaller, from smaller states, built from earlier, from earlier ones, from the previous ones
base: base, base case, starting case, starting cases, smallest case, smallest cases, initial, starting values, starting value, starting point
render: render, rerender, re render, paint, draw
parent: parent, component above, ancestor, owner
reference: reference, identity, referential, object is, by reference, same object, new object, new array, shallow
stable: stable, same, doesn't change, does not change, never changes, consistent, persistent, fixed, keep the same, identity
profile: profile, profiler, measure, devtools, which components are slow
local: local, where it's used, where it is used, close to, colocate, colocated, right where
lift: lift, move it up, move up, pull up, lifted, moved up, hoist
common: common, shared, share, closest, nearest
global: global, app wide, everywhere, whole app, theme, logged in user, current user
lowfrequency: rarely, seldom, infrequent, infrequently, low frequency, rarely change, don't change often, hardly ever, hardly changes, almost never changes, barely change, barely changes, barely ever, hardly change, rarely changes
low: rarely, seldom, infrequent, infrequently, low, hardly ever
frequent: frequent, frequently, often, a lot, constantly, all the time
frequency: frequency, frequent, often, rarely, seldom, how often
store: store, redis, redux, zustand, mobx, jotai, recoil, global store
datafetch: react query, tanstack query, swr, apollo, rtk query, data fetching, fetching library
identify: identify, identity, which is which, tell apart, distinguish, match, match up, track, tell react
across: across, between, from one, next render
id: id, identifier, ids, key
unique: unique, distinct, stable, doesn't change, never changes
random: random, math random, uuid, randomly
remount: remount, mounts again, throws away, throw away, recreate, from scratch, reset, rebuild
reset: reset, start fresh, from scratch, clear, reinitialise, fresh
external: external, outside, third party, websocket, subscription, browser api, timer, network, non react, outside react
sync: sync, synchronise, synchronize, keep in sync, in sync, keeping
derive: derive, derived, compute, calculate, work out, figure out, computed
dependency: dependency, dependencies, deps, dependency array, dependency list
stale: stale, old, outdated, out of date, previous, older, old value, old values, from the first render, previous render
race: race, racing, out of order, overwrite, overwrites, newer one, older responses, older response
abort: abort, cancel, ignore, abortcontroller, ignoring, discard
twice: twice, two times, double, mounts it again, again
application: application, app, the code, orm, backend, our code
resource: resource, noun, url, urls, path, endpoint, entity, name the thing, collection
verb: verb, get, post, put, patch, delete
status: status, code, http status
format: format, shape, structure, envelope, layout, body
consistent: consistent, same, uniform, standard, common, always, one
paginate: paginate, pagination, page, paging, cursor, offset, limit
filter: filter, where clause, where
sort: sort, sorting, order by, sorted
validate: validate, validation, check, checked, verify, sanitise, parse, zod, joi, yup, ajv
schema: schema, zod, joi, yup, ajv, json schema, contract
version: version, versioning, v1, v2
additive: additive, only add, never remove, backwards compatible, backward compatible, non breaking, add fields, only ever add
document: document, documentation, docs, written up, swagger, openapi, spec
idempotent: idempotent, idempotency, same result, safe to retry, safe to repeat, same effect, unique key, idempotency key, charging twice, twice
single: single, one thread, one stack, one call stack, only one, once, in one go, one pass
delegate: delegate, hand off, handed off, offload, pass off, off to the side, in the background, hands off
io: io, disk, network, file, socket, database, i o
os: os, operating system, kernel
cpu: cpu, heavy, intensive, compute, crunching, hashing, encryption, image, images, resizing, big loop, massive loop, json parse
stall: block, freeze, freezes, hang, stall, hold up, holds up, hog, hogs, starve, nobody else, nothing else can run, kills it
worker: worker, web worker, worker thread, background job, background queue, job queue, offload
stream: stream, chunk, chunks, pipe, piece by piece, bit by bit
cluster: cluster, processes, several processes, pm2, all the cores, every core, cores, replicas, instances
monitor: monitor, watch, track, alert, metric, dashboard, observe, measure, graph, chart, plot
lag: lag, delay, latency, late, lateness, running behind
distinguish: distinguish, separate, differentiate, tell apart, categorise, classify, treat differently, split
operational: operational, expected, known, anticipated, user error, bad data, bad input, not found
programmer: programmer, bug, unexpected, our code, coding error, programming
map: map, translate, convert, turn into, turned into, return, respond
central: central, centralise, centralize, one place, global, one error handler, shared, single, at the end
middleware: middleware, handler, error handler, interceptor, plugin, hook
leak: leak, expose, send back, reveal, show, return
trace: trace, stack trace, stacktrace, internals
request id: request id, correlation id, trace id
timeout: timeout, time out, time limit, give up after, deadline
crash: crash, die, exit, let it die, kill the process, process exit, terminate
restart: restart, bring it back, respawn, supervisor, orchestrator, kubernetes, pm2, systemd, restarted
unknown: unknown, unexpected, corrupt, inconsistent, don't know what state, bad state
graceful: graceful, drain, in flight, finishing the requests, finish the requests, gracefully
hash: hash, hashed, bcrypt, argon2, scrypt, plain text, plaintext
httponly: httponly, http only, can't read, cannot read, javascript can't read
samesite: samesite, same site
revoke: revoke, revocation, invalidate, log out, logout, take back, take one back, kill, delete the session, blacklist, denylist, sign out, logging someone out
shared: shared, central, common, every instance, all instances, every server, all servers, all the servers, same storage, one store, all see the same
stateless: stateless, doesn't keep anything, keeps nothing, no state, nothing on the server, without a database lookup, self contained, carries the claims
signed: signed, sign, signature, hmac, tamper
short: short, short lived, few minutes, 15 minutes, minutes, brief
refresh: refresh, refresh token
csrf: csrf, cross site request forgery, request forgery, forgery
xss: xss, cross site scripting, localstorage, local storage
https: https, tls, ssl, encrypted in transit
authorise: authorise, authorization, permission, permissions, access control, role, roles, rbac, allowed to
ratelimit: rate limit, rate limiting, quota, throttle, limiter, limit, cap, capped
body: body, payload, request size, body size, upload
backoff: backoff, back off, wait longer, longer each time, bit longer, longer and longer, increasing delays, increasing delay, doubling, exponential
jitter: jitter, random, randomness, randomise, randomize
breaker: breaker, circuit breaker, trip, stop calling, fail fast
btree: btree, b tree, tree, balanced tree
sorted: sorted, sort, order, in order, ordered
composite: composite, multi column, multicolumn, two columns, several columns, more than one column, compound, concatenated, columns together
leftmost: leftmost, first column, prefix, left to right, order matters, column order, leading column
covering: covering, index only, only the index, straight from the index, from the index, doesn't have to go to the table, every column, all the columns
write: write, writes, insert, inserts, update, updates
selectivity: selectivity, cardinality, few distinct values, boolean, flag, yes no, half the rows, most rows, low cardinality, true false
little: little, barely, hardly, not much, barely helps
wildcard: wildcard, percent at the start, leading percent, like with a percent, starts with a percent
explain: explain, query plan, plan, planner, analyze, analyse
match: match, matching, matched, in both, both tables, pair up
keep: keep, keeps, retain, preserve
null: null, nulls, empty, missing, blank, nothing
full: full, both, both sides, both tables, everything, whichever side, all rows
multiply: multiply, duplicate, duplicated, more rows, repeated, fan out, one to many, blow up
atomic: atomic, atomicity, all or nothing, none of it, whole transaction, either all, rolled back, rollback, roll back
valid: valid, constraint, constraints, rule, rules, invariant, integrity, hold, holds
concurrent: concurrent, concurrently, at once, running at once, at the same time, parallel, simultaneous, simultaneously, step on each other, interfere, running at the same time
durable: durable, durability, survives a crash, survive a crash, persist, persistent, write ahead log, wal, saved to disk
dirty: dirty, uncommitted, reading uncommitted
nonrepeatable: non repeatable, read the same row twice, reading the same row twice, different answer, different value
phantom: phantom, new rows, rows showing up, appear, showing up
serializable: serializable, serialisable, read committed, repeatable read
lost: lost, lose, overwrite, one of the updates, clobber, last write wins, gets lost
lock: lock, locking, select for update, for update, optimistic, version number, compare and swap, cas
once: once, one place, single place, one row, not repeating, no duplication, only once
anomaly: anomaly, anomalies, inconsistency, two different versions, out of sync, drift, drift apart
normalform: 1nf, 2nf, 3nf, first normal form, second normal form, third normal form, bcnf, normal form
foreign: foreign, foreign key, fk, point at each other, references, link, join table
relationship: relationship, relation, related, link, links, references
denormalise: denormalise, denormalize, denormalisation, copy, copies, duplicate
hot: hot, hot path, read heavy, reads are hot, frequently read, busy, read often, read a lot, read constantly, read all the time, read that often, that often, so often, very often
readperf: read performance, faster reads, slow joins, avoid joins, joins are too slow, read speed
report: report, reporting, analytics, summary table, aggregate, rollup, dashboard, tracking
materialise: materialise, materialize, materialized view, materialised view, precompute, precomputed
history: history, historical, snapshot, at the time, what they paid, price at the time, copy the price, remember what
cost: cost, downside, drawback, price, penalty, trade off, catch
extra: extra, more, additional, every write, more work
insync: sync, in sync, synchronise, reconcile, keep in sync, keep them in sync
truth: source of truth, canonical, master, authoritative, system of record
slowlog: slow query log, slow log, pg stat statements, pgstatstatements, slow query logs
correlate: correlate, what changed, line up, coincide, compare, lines up, started after, right after, around the same time, since the deploy
deploy: deploy, deployment, release, rollout, new version, ship, shipped
load: load, traffic, more traffic, usage, requests per second, throughput
estimate: estimate, estimated, planner thinks, expected rows, rough numbers, ballpark, roughly, back of the envelope
statistics: statistics, stats, analyze, vacuum, stale, outdated
scan: sequential scan, seq scan, full table scan, table scan, full scan, reading every row, scans the whole table, every row
missing: missing, no index, unused, not used, doesn't use, stopped using, used to use
contention: contention, waiting, blocked, deadlock, locks
nplus1: n 1, n plus 1, n plus one, one query per row, query per row, query in a loop, queries in a loop, per row
verify: verify, confirm, check it worked, before and after, benchmark, measure, measurements
functional: functional, feature, features, what it needs to do, what it should do, use cases
scale: scale, traffic, per day, per second, volume, back of the envelope, load, a month, per month, a day, millions, billions
readheavy: read heavy, more reads than writes, reads than writes, ratio, 100 to 1, hundred to one, mostly reads
base62: base62, base 62, base sixty two, encode, auto increment, auto incrementing, auto incremented, counter, sequence, short code, letters and digits, upper and lower case
keyvalue: key value, kv, dynamodb, dynamo, redis, cassandra, lookup by, key to
cdn: cdn, edge, content delivery
redirect301: 301, permanent, permanently
redirect302: 302, temporary, temporarily
asynchronous: asynchronous, async, in the background, background, fire and forget, separate consumer, kafka, sqs, rabbitmq, later
abuse: abuse, spam, malicious, bad actors, spammers, phishing
availability: availability, available, uptime, replicas, redundancy, failover, fail over
layer: layer, layers, level, levels, lots of places, many places, tier, tiers
browser: browser, client side, cdn, in memory, application, app
stampede: stampede, thundering herd, dog pile, dogpile, all missing at once, hammering, only one of them, all at once, at once
coalesce: coalesce, coalescing, single flight, singleflight, request collapsing, only one of them, rebuilds it
tolerate: tolerate, fine if, okay if, ok if, acceptable, doesn't matter if, a bit stale, out of date, few seconds
cacheaside: cache aside, lazy loading, on a miss, miss, read through, populate, fills the cache, fill the cache, if it's not there, not in the cache, isn't in the cache, isn't there
writethrough: write through
evict: evict, eviction, lru, lfu, least recently used, size limit, max size, maximum size, cap the size
degrade: graceful, degrade, degradation, carry on, fallback, fall back, falls over, slower rather than failing
burst: burst, bursts, spike, spikes, short bursts, room for
algorithm: token bucket, leaky bucket, fixed window, sliding window, sliding log, algorithm
gateway: gateway, api gateway, proxy, middleware, in front of, nginx, envoy, load balancer
shard: shard, sharding, partition, split across, consistent hashing, across several
failopen: fail open, fail closed, let everything through, block everything, allow everything, reject everything, let everyone through, block everyone, let everybody through, block everybody
channel: channel, channels, email, sms, push, text message
preference: preference, preferences, settings, opt out, opted out, choose what they get, turned off, unsubscribe
event: event, events, publish, trigger, triggered
template: template, templates, fills in, fill in
perchannel: per channel, each channel, separate queue, queue per, queue for each, for each channel
provider: provider, providers, third party, sendgrid, twilio, ses, fcm, apns, mailgun, vendor
horizontal: horizontal, horizontally, scale out, scaled out, more workers, add workers, pool, scale
deadletter: dead letter, dlq, dead letter queue, parking queue
track: track, tracking, delivery status, delivered, delivery receipts, receipts, opened, bounce, bounced
shape: shape, structure, model, what the data looks like, looks like
access: access pattern, access patterns, how you query, query it, how it's read, how you're going to query, queries
transaction: transaction, transactions, acid, money moving, atomic
nosqlfamily: document, documents, mongo, mongodb, wide column, cassandra, hbase, bigtable, graph, neo4j, key value
cap: cap, cap theorem, eventual consistency, eventually consistent, strong consistency, eventual
knownqueries: known queries, query patterns, design around, model around, around the queries, around the access
experience: experience, skills, familiarity, know well, familiar, expertise
operations: operations, ops, run it, managed, maintenance, operational, operate
combine: combine, combining, polyglot, use both, mix, alongside, both, next to it, next to, side by side, together with
library: built in, builtin, library, includes, splice, indexof, itself linear, hidden cost
amortise: amortise, amortize, amortised, on average, average over, occasional
edge: edge case, edge cases, corner case, corner cases, what if, could there be, empty array, what should i return
duplicate: duplicate, duplicates, repeated, repeated numbers, same element, same number, used twice
lint: lint, eslint, linter, tslint, lint rule, lint plugin
enforce: enforce, enforced, catch, catches, flag, flags, forbid, warn, warns
strict: strict, triple equals, triple equal, three equals, strictly
macrotask: macrotask, task, next task, each task, one task
drain: drain, empty, empties, flush, flushes, run all, runs all, clear out, all of them, whole queue
sugar: sugar, syntax, syntactic, nicer syntax, on top of, wrapper, nicer way, prettier way, underneath, under the hood, same thing
link: link, pointer, reference to, wire, wiring, wired, connect, connects, hook up, point to, points to, points at
free: free, frees, clean up, cleans up, reclaim, reclaims, release, collect, collects
unreachable: unreachable, nothing can reach, can't reach, can't be reached, no longer reachable, not reachable, no references, nothing references, nothing points to
reachable: reachable, holding a reference, still referenced, still holding, still hold, reference to, keeps a reference, still reachable, hanging on to, hang on to, holding on to, hold on to, holding onto, hangs on to
interval: interval, every so often, once every, per second, fixed rate, period, once per, every 100
runtime: runtime, run time, when the code runs, when it runs, when the code hits it, dynamically, while running, on the fly, when that line runs, when the line runs, when the line is reached
evaluate: evaluate, execute, executes, run, runs, runs when, fire, fires, fired
static: static, statically, fixed, at the top level, top level, known ahead of time, ahead of time, without running, before running, analysed, analyzed
treeshake: tree shaking, tree shake, strip out, strips out, dead code, unused code, drop unused, remove unused, eliminate, nobody imports, nobody uses, unused exports
enable: enable, enables, allows, makes possible, possible
objectis: object is, by reference, reference equality, referential equality, same reference, shallow compare, shallow comparison, identity
array: array, list, dependency list
return: return, returns, produce, yield, get back, you get
unmatched: unmatched, no match, without a match, don't match, doesn't match, whichever side, nothing on, null on
perform: performance, perf, fast, slow, speed, latency, quick
operation: operation, op, step, command, instruction
sequential: sequential, sequentially, one after the other, one after another, in sequence, back to back, consecutive, after each other
multiply: multiply, multiplies, times, squared, product
pointer: pointer, pointers, both ends, each end, two indices, left and right, from both sides
solution: solution, answer, result
edgecase: edge case, edge cases, corner case, corner cases, what if, could there be, empty array, what should i return, input is empty
path: path, paths, route, steps, hops, distance
unweighted: unweighted, same cost, equal weight, same weight, edges cost the same, cost the same, no weights, all the same weight
topological: topological, topological sort, by their dependencies, dependency order, ordering tasks, order tasks, build order, dependencies first
pitfall: pitfall, pitfalls, gotcha, trap, thing to watch, watch out for, be careful, downside, danger, watch out, catch, careful, bite
pass: pass, passing, hand, handing, give, giving, send, handing it
work: work, job, ticket, tickets, stories
example: example, instance, for instance, such as, e g, use case, used it for, used that for, you see it, we used, i used
listener: listener, event listener, event listeners, addeventlistener, handlers
detached: detached, detach, removed from the page, removed from the dom, no longer in the page, off the page
node: node, nodes, element, elements
condition: condition, conditional, filter, if statement, if statements, an if, inside an if, in an if, if block
continue: continue, continuing, still, ongoing, to this day, every couple of months, regularly, keep asking
role: role, i was the, my part, i led, i built, i designed, i wrote, it was my idea, i owned, my job
vertex: vertex, vertices, node, nodes
linear: v plus e, o of v, o v e
width: width, wide, widest
signal: signal, sign, clue, hint, spot, recognise, telltale, giveaway, tell it
commit: commit, committed, updated the dom, after the dom, dom is updated, after render, after rendering, after paint, painted, on screen
compare: compare, compared, diff, diffing, difference, side by side
devtools: devtools, dev tools, chrome devtools, browser tools, memory tab
related: related, together, go together, change together, connected, linked
turn: turn, turns into, becomes, become, end up with, ends up as, you've got, effectively
worked: worked, paid off, right call, right decision, went well, good call
retryafter: retry after, how long to wait, when to come back, when they can try again, when to retry, how many seconds, how long to back off, when to try again, seconds to wait
size: size, huge, too big, max size, maximum size, oversized
coerce: coerce, coercion, convert, conversion, conversions, converts, cast
walk: walk, walks, all the way up, goes up, up the chain, climb, climbs, traverse
leading: leading, at the start, first event, straight away, the start of, start of the burst
trailing: trailing, at the end, last event, the end of, end of the burst, after the last
unbounded: unbounded, forever, never shrinks, never cleared, never emptied, without a limit, no limit, keeps growing, grows forever, keep adding
synchronous: synchronous, synchronously, blocks until, waits until, one at a time
invoke: invoke, invoked, invoking, invocation, call, called, calling
determine: determine, determined, depends on, depend on, depending on, based on, decided by
range: range, ranges, between two values, between two dates, everything between, from one value to another
429: 429, too many requests
`;

export interface Lexicon {
  /** Concept tags by word key (see `keyOf`). */
  words: Map<string, string[]>;
  /** Phrases by their first word key: the keys of the whole phrase and its concept. */
  phrases: Map<string, Array<{ keys: string[]; tag: string }>>;
}

/**
 * Builds the lexicon with the caller's notion of a word key (stem, or the word itself for a
 * stop word) and tokenizer, so phrases and words are compared exactly as the answer's words are.
 */
export function buildLexicon(keyOf: (word: string) => string, words: (text: string) => string[]): Lexicon {
  const lexicon: Lexicon = { words: new Map(), phrases: new Map() };
  for (const line of CONCEPTS.split('\n')) {
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    const tag = `~${line.slice(0, colon).trim().replace(/\s+/g, '-')}`;
    for (const entry of line.slice(colon + 1).split(',')) {
      const keys = words(entry).map(keyOf);
      if (keys.length === 0) continue;
      if (keys.length === 1) {
        const tags = lexicon.words.get(keys[0]!) ?? [];
        if (!tags.includes(tag)) tags.push(tag);
        lexicon.words.set(keys[0]!, tags);
      } else {
        const list = lexicon.phrases.get(keys[0]!) ?? [];
        list.push({ keys, tag });
        lexicon.phrases.set(keys[0]!, list);
      }
    }
  }
  return lexicon;
}
