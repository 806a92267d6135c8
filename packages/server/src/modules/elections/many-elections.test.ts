import request from 'supertest';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { election, organisation } from '../../db/schema';
import { apiClient, binaryBody, bodyOf, type ApiClient } from '../../../test/client';
import { createCandidate, createPosition, tokenFor } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createVoter } from '../../../test/voting/election';
import { verifyAudit } from '../declaration';

/**
 * Two elections in one installation (docs/api.md "Many elections"): `?election_id=N` scopes every
 * call of the voting and results family, the bare calls act on the current election, and one
 * election's positions, ballots, results, statistics and commitments never show in the other's.
 */
let t: TestApp;
let admin: ApiClient;
let agent: ApiClient;
let anon: ApiClient;
let byElection: number;
let annual: { id: number; name: string };
let annualCandidate: { id: number };
let by: { id: number; name: string };
let byCandidate: { id: number };

beforeAll(async () => {
  t = await createTestApp({ env: { MIX_INTERVAL_MS: '3600000' } });
  admin = apiClient(t.app, await tokenFor(t.ctx, 'admin'));
  agent = apiClient(t.app, await tokenFor(t.ctx, 'agent'));
  anon = apiClient(t.app);
  const [row] = await t.ctx.database.db.insert(election).values({ title: 'By-election' }).returning({ id: election.id });
  byElection = row!.id;
  annual = await createPosition(t.ctx, { name: 'Annual Trustee' });
  // The same name and level as a position of election 1 (the sample structure's): names are per election.
  by = await createPosition(t.ctx, { name: 'Chairperson', electionId: byElection });
  annualCandidate = await createCandidate(t.ctx, [annual.id], { name: 'Annual Candidate' });
  byCandidate = await createCandidate(t.ctx, [by.id], { name: 'By Candidate' });
  await t.ctx.voting.tallyOf(1).refreshStructure();
  await t.ctx.voting.tallyOf(byElection).refreshStructure();
});
afterAll(async () => {
  await t?.close();
});

/** The ids of the positions listed for the election (the current one when not named). */
const positionIds = async (electionId?: number | string) =>
  bodyOf(await anon.members.listPositions({ query: electionId === undefined ? {} : { election_id: electionId } }), 200).data.map(
    (p) => p.id,
  );
const candidateIds = async (electionId?: number) =>
  bodyOf(
    await admin.candidates.listCandidates({ query: electionId === undefined ? {} : { election_id: electionId } }),
    200,
  ).data.data.candidates.map((c) => c.id);

describe('?election_id scopes the voting and results family', () => {
  it('lists each election its own positions and candidates; the bare call is the current election (1)', async () => {
    const current = await positionIds();
    expect(current).toContain(annual.id);
    expect(current).not.toContain(by.id);
    expect(await positionIds(byElection)).toEqual([by.id]);
    expect(await positionIds(1)).toEqual(current);
    expect(await candidateIds(byElection)).toEqual([byCandidate.id]);
    expect(await candidateIds()).toEqual([annualCandidate.id]);
  });

  it('answers 404 in the envelope for an unknown or malformed election id', async () => {
    for (const bad of ['999999', 'abc', '0', '-1', '1.5', '99999999999999999999']) {
      const res = await anon.members.listPositions({ query: { election_id: bad } });
      expect(res.status, bad).toBe(404);
      expect(res.body, bad).toEqual({ message: 'No such election' });
    }
    expect((await anon.elections.getResults({ query: { election_id: 424242 } })).status).toBe(404);
    expect((await admin.elections.toggleElection({ query: { election_id: 424242 }, body: { status: true } })).status).toBe(404);
    // Routes with a query of their own (the contract merges ?election_id into it) answer alike.
    const ownQuery = {
      'results/export': await admin.elections.exportResults({ query: { election_id: 'abc' } }),
      'results/ballots': await admin.lifecycle.getRankedBallots({ query: { position_id: 1, election_id: 'abc' } }),
    };
    for (const [route, res] of Object.entries(ownQuery)) {
      expect(res.status, route).toBe(404);
      expect(res.body, route).toEqual({ message: 'No such election' });
    }
  });

  it('toggles, votes, counts and commits each election apart', async () => {
    const { token } = await createVoter(t.ctx);
    const voter = apiClient(t.app, token);
    // Only the by-election is open: its ballot and vote work, election 1's vote is refused.
    expect(bodyOf(await admin.elections.toggleElection({ query: { election_id: byElection }, body: { status: true } }), 200).active).toBe(
      '1',
    );
    expect((await anon.elections.getElectionStatus()).body).toEqual({ active: '0' });
    expect((await anon.elections.getElectionStatus({ query: { election_id: byElection } })).body).toEqual({ active: '1' });

    const ballot = bodyOf(await voter.ballots.getBallot({ query: { election_id: byElection } }), 200);
    expect(ballot.data.map((g) => g.position_id)).toEqual([by.id]);
    const own = bodyOf(await voter.ballots.getBallot(), 200).data.map((g) => g.position_id);
    expect(own).toContain(annual.id);
    expect(own).not.toContain(by.id);

    const refused = await voter.ballots.castVote({ body: { candidates: { [annual.id]: annualCandidate.id } } });
    expect(refused.status).toBe(403);
    // A position of election 1 is no position of the by-election's ballot.
    const crossed = await voter.ballots.castVote({
      query: { election_id: byElection },
      body: { candidates: { [annual.id]: annualCandidate.id } },
    });
    expect(crossed.status).toBe(422);
    expect(bodyOf(crossed, 422).errors?.[`candidates.${annual.id}`]).toEqual(['The selected position does not exist']);

    // The vote resolves its election inside its one statement: an unknown or malformed id is a 404, nothing recorded.
    for (const bad of ['424242', 'abc']) {
      const unknown = await voter.ballots.castVote({ query: { election_id: bad }, body: { candidates: { [by.id]: byCandidate.id } } });
      expect([unknown.status, unknown.body], bad).toEqual([404, { message: 'No such election' }]);
    }
    const cast = await voter.ballots.castVote({ query: { election_id: byElection }, body: { candidates: { [by.id]: byCandidate.id } } });
    expect(cast.status).toBe(201);
    // Without a parameter the vote goes to the current election: named by the organisation, it is the by-election.
    expect((await admin.organisation.updateOrganisation({ body: { current_election_id: byElection } })).status).toBe(200);
    const again = await voter.ballots.castVote({ body: { candidates: { [by.id]: byCandidate.id } } });
    expect(again.status).toBe(409);
    expect(bodyOf(again, 409).message).toContain(by.name);
    expect((await admin.organisation.updateOrganisation({ body: { current_election_id: 1 } })).status).toBe(200);

    // Election 1 opens too: the same member votes there separately.
    expect(bodyOf(await admin.elections.toggleElection({ body: { status: true } }), 200).active).toBe('1');
    // A toggle rebuilds the snapshots; a vote arriving meanwhile is counted when the rebuild ends.
    await Promise.all([t.ctx.voting.tallyOf(1).idle(), t.ctx.voting.tallyOf(byElection).idle()]);
    const second = await voter.ballots.castVote({ body: { candidates: { [annual.id]: annualCandidate.id } } });
    expect(second.status).toBe(201);

    await Promise.all([t.ctx.voting.tallyOf(1).idle(), t.ctx.voting.tallyOf(byElection).idle()]);
    const results = async (electionId?: number) =>
      bodyOf(await anon.elections.getResults({ query: electionId === undefined ? {} : { election_id: electionId } }), 200).data.data.map(
        (g) => [g.position_id, g.total],
      );
    expect(await results()).toContainEqual([annual.id, 1]);
    expect((await results()).map(([id]) => id)).not.toContain(by.id);
    expect(await results(byElection)).toEqual([[by.id, 1]]);
    expect(
      bodyOf(await agent.elections.getAgentResults({ query: { election_id: byElection } }), 200).data.data.map((g) => g.position_id),
    ).toEqual([by.id]);

    const stats = bodyOf(await admin.elections.getStatistics({ query: { election_id: byElection } }), 200).data.data;
    expect(stats).toMatchObject({ votesCasted: 1, membersVoted: 1 });
    expect(bodyOf(await admin.elections.getStatistics(), 200).data.data).toMatchObject({ votesCasted: 1, membersVoted: 1 });

    // Each election's commitments cover its own ballots; the audit of each passes.
    const commitments = bodyOf(await anon.elections.listCommitments({ query: { election_id: byElection } }), 200);
    expect(commitments.data.length).toBeGreaterThan(0);
    expect(bodyOf(await anon.elections.listCommitments(), 200).data.length).toBeGreaterThan(0);
    // the mixer's batch comes with them, so a small election's 0 ballots can be explained (issue 37)
    expect(commitments.mix_batch).toBe(t.ctx.env.MIX_MIN_BATCH);
    expect((await verifyAudit(t.ctx, 1)).problems).toEqual([]);
    expect((await verifyAudit(t.ctx, byElection)).problems).toEqual([]);
  });

  it('GET/PUT election act on the named election; the organisation texts are shared', async () => {
    const put = await admin.elections.updateElection({
      query: { election_id: byElection },
      body: { title: 'By-election 2026', organisation: 'Umoja Sacco' },
    });
    expect(put.status).toBe(200);
    expect(bodyOf(put, 200).data).toMatchObject({ title: 'By-election 2026', organisation: 'Umoja Sacco' });
    const current = bodyOf(await anon.elections.getElection(), 200).data;
    expect(current.title).not.toBe('By-election 2026');
    expect(current.organisation).toBe('Umoja Sacco');
  });

  it('resolves the current election: the organisation choice, else the only open one, else the newest not archived', async () => {
    const db = t.ctx.database.db;
    const status = async () => bodyOf(await anon.elections.getElection(), 200).data.title;
    await db.update(organisation).set({ currentElectionId: byElection });
    expect(await status()).toBe('By-election 2026');
    await db.update(organisation).set({ currentElectionId: null });
    // Both are open: the newest not archived (the by-election).
    expect(await status()).toBe('By-election 2026');
    await admin.elections.toggleElection({ query: { election_id: byElection }, body: { status: false } });
    // Only election 1 is open now.
    expect(bodyOf(await anon.elections.getElection(), 200).data.phase).toBe('open');
    expect(await status()).not.toBe('By-election 2026');
    await db.update(organisation).set({ currentElectionId: 1 });
  });

  it("closes both at once and declares each its own: each PDF holds its own digest, not the other's, and the by-election's title only its own", async () => {
    const both = [1, byElection];
    expect((await admin.elections.toggleElection({ query: { election_id: byElection }, body: { status: true } })).status).toBe(200);
    // Both open, closed together over concurrent connections.
    const closes = await Promise.all(both.map((id) => admin.lifecycle.closeElection({ query: { election_id: id } })));
    expect(closes.map((r) => r.status)).toEqual([200, 200]);
    const digests = await Promise.all(
      both.map(async (id) => bodyOf(await anon.evidence.getEvidenceDigest({ params: { id } }), 200).data.digest),
    );
    expect(digests[0]).not.toBe(digests[1]);
    // Both declarations rendered at once (the PDF library is loaded at the first: here, by two).
    const texts = await Promise.all(
      both.map(async (id) => {
        const res = await binaryBody(request(t.app).get(`/api/v1/psk/results/declaration.pdf?election_id=${id}&lang=en`));
        expect(res.status).toBe(200);
        const { text } = await extractText(await getDocumentProxy(new Uint8Array(res.body as Buffer)), { mergePages: true });
        return text.replace(/\s+/g, ' ');
      }),
    );
    both.forEach((_, i) => {
      expect(texts[i]).toContain(digests[i]);
      expect(texts[i]).not.toContain(digests[1 - i]);
    });
    // Election 1 has no title of its own (its heading is the organisation's name); the by-election's
    // was set above.
    expect(texts[1]).toContain('By-election 2026');
    expect(texts[0]).not.toContain('By-election 2026');
  });
});

describe('an election in set-up (docs/api.md "Ballot eligibility")', () => {
  it('shows a voter its ballot, as public as its positions and candidates already are, and takes no vote in it', async () => {
    const [row] = await t.ctx.database.db.insert(election).values({ title: 'Draft by-election' }).returning({ id: election.id });
    const draft = row!.id;
    const seat = await createPosition(t.ctx, { name: 'Draft Seat', electionId: draft });
    const standing = await createCandidate(t.ctx, [seat.id], { name: 'Draft Candidate' });
    await t.ctx.voting.tallyOf(draft).refreshStructure();
    expect(bodyOf(await anon.elections.getElection({ query: { election_id: draft } }), 200).data.phase).toBe('setup');

    // Anyone may read the draft's positions and (results visibility `live`) its candidates...
    expect(await positionIds(draft)).toEqual([seat.id]);
    const results = bodyOf(await anon.elections.getResults({ query: { election_id: draft } }), 200).data.data;
    expect(results.flatMap((g) => g.values.map((v) => v.name))).toEqual(['Draft Candidate']);
    // ...so the voter's ballot shows nothing more.
    const { token } = await createVoter(t.ctx);
    const voter = apiClient(t.app, token);
    const ballot = bodyOf(await voter.ballots.getBallot({ query: { election_id: draft } }), 200).data;
    expect(ballot.map((g) => [g.position_id, g.candidates.map((c) => c.id)])).toEqual([[seat.id, [standing.id]]]);

    const vote = await voter.ballots.castVote({ query: { election_id: draft }, body: { candidates: { [seat.id]: standing.id } } });
    expect(vote.status).toBe(403);
    expect(bodyOf(await admin.elections.getStatistics({ query: { election_id: draft } }), 200).data.data).toMatchObject({
      votesCasted: 0,
      membersVoted: 0,
    });
  });
});
