// Figure 12: the register (issue 39; docs/api.md "The register"). 100,000 members of a branch of
// their own, each with three attributes, and an election whose electorate is that branch under
// three rules (shares at least, subscription paid, joined a year before voting opens), set up in
// SQL. Measured over HTTP: the roll computed as it stands (`GET elections/{id}/roll`: its size by
// branch, every rule evaluated for every member), then the freeze: the register's close is set to
// now and the next `GET elections/{id}/roll` freezes it (the roll written to election_roll, its hash,
// the activity-log row) and answers the frozen roll. Target: computed and frozen in under 2 s.
import { nowMs, round } from '../lib/util.mjs';

const MEMBERS = 100_000;

async function getRoll(server, id) {
  const res = await fetch(`${server.url}/api/v1/elections/${id}/roll`);
  if (!res.ok) throw new Error(`GET roll answered ${res.status}`);
  return (await res.json()).data;
}

export async function measure(b, { server, exec }) {
  const [branch] = await exec(`insert into branches (name) values ('Register bench') returning id`);
  await exec(`
    insert into members (member_no, name, phone, branch_id, attributes)
    select 'RB' || lpad(i::text, 6, '0'), 'Register member ' || i, '+2547' || lpad((20000000 + i)::text, 8, '0'), ${branch.id},
      jsonb_build_object('shares', (i * 37) % 40000, 'paid', i % 10 <> 0,
                         'joined', to_char(date '2020-01-01' + (i % 2500), 'YYYY-MM-DD'))
    from generate_series(1, ${MEMBERS}) i`);
  await exec(`analyze members`);
  await exec(
    `update organisation set attributes = '[{"key":"shares","label":"Shares (KSh)","type":"number"},{"key":"paid","label":"Subscription paid","type":"boolean"},{"key":"joined","label":"Joined","type":"date"}]'`,
  );
  const rules = JSON.stringify([
    { attribute: 'shares', op: 'at_least', value: 20000 },
    { attribute: 'paid', op: 'equals', value: true },
    { attribute: 'joined', op: 'on_or_before', value: { years_before: 1 } },
  ]);
  const [e] = await exec(`
    insert into election (title, electorate_branch_ids, electorate_rules, opens_at, closes_at, register_opens_at, register_closes_at)
    values ('Register bench', array[${branch.id}], '${rules}'::jsonb, now() + interval '10 days', now() + interval '11 days',
            now() - interval '1 day', now() + interval '1 day') returning id`);
  // One warm-up read (plans, caches), then the measured ones.
  await getRoll(server, e.id);
  let t = nowMs();
  const live = await getRoll(server, e.id);
  const computeMs = round(nowMs() - t, 0);
  await exec(`update election set register_closes_at = now() where id = ${e.id}`);
  t = nowMs();
  const frozen = await getRoll(server, e.id);
  const freezeMs = round(nowMs() - t, 0);
  if (!frozen.frozen_at || frozen.size !== live.size || !frozen.hash) throw new Error('the roll did not freeze as computed');
  b.say(`register: ${MEMBERS} members, 3 rules: roll of ${live.size} computed in ${computeMs} ms, frozen (with hash) in ${freezeMs} ms`);
  b.results.phases.register = { members: MEMBERS, size: live.size, computeMs, freezeMs };
  return { register: { members: MEMBERS, size: live.size, computeMs, freezeMs } };
}

/** @returns {import('../lib/bench.mjs').FigureRow[]} */
export function verdict({ register }) {
  if (!register) return [];
  const total = register.computeMs + register.freezeMs;
  return [
    {
      id: '12',
      name: `the roll of ${register.members.toLocaleString('en')} members under 3 rules, computed and frozen`,
      value: `${total} ms (computed ${register.computeMs} ms, frozen ${register.freezeMs} ms)`,
      baseline: `${register.size.toLocaleString('en')} members on the roll`,
      ratio: round(total / 2000, 2),
      target: '< 2 s',
      met: total < 2000,
    },
  ];
}
