import type { Signature, SigningKey } from '@kura/contract';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { SignedInActor } from '../../auth/actor';
import type { Core } from '../../core';
import { electionSubject, readState, type ElectionId } from '../../db/election-store';
import { uniqueViolation } from '../../db/errors';
import { declarationSignatures, signingKeys } from '../../db/schema';
import { AppError } from '../../errors';
import { declarationText, fingerprintOf, rawPublicKey, verifyEd25519, type SignatureKind } from '../../evidence/digest';
import { recordActivity } from '../../lib/activity-log';
import type { ResultsContext } from '../results';
import { evidenceManifest } from './evidence';
import { inTransaction } from '../../lib/unit-of-work';

/**
 * Signing keys and signatures (docs/operations.md "After the close: certifying the result"): the
 * server stores public keys and checks signatures; it never holds a private key, so it cannot
 * sign for anyone.
 */

type StaffActor = SignedInActor & { role: 'admin' | 'agent' };

function asStaff(actor: SignedInActor): StaffActor {
  if (actor.role !== 'admin' && actor.role !== 'agent') throw new AppError('FORBIDDEN');
  return actor as StaffActor;
}

/** `PUT staff/signing-key`: registers (replaces) the caller's key; logged. */
export async function putSigningKey(ctx: Core, caller: SignedInActor, publicKey: string): Promise<SigningKey> {
  const actor = asStaff(caller);
  const raw = rawPublicKey(publicKey);
  if (!raw) throw AppError.fieldsSaid({ public_key: [{ id: 'field.ed25519Key' }] });
  const fingerprint = fingerprintOf(raw);
  const registeredAt = ctx.now();
  await inTransaction(ctx, 'Signing key registered', async (tx) => {
    await tx.insert(signingKeys).values({ staffId: actor.id, publicKey, fingerprint, registeredAt });
    await recordActivity(
      ctx,
      {
        name: actor.name,
        userId: actor.id,
        userType: actor.role,
        activity: 'Registered a signing key',
        data: `fingerprint ${fingerprint}`,
        ip: actor.ip,
        status: 'success',
      },
      tx,
    );
  });
  return { fingerprint, public_key: publicKey, name: actor.name, role: actor.role, registered_at: registeredAt.toISOString() };
}

const toSignature = (row: typeof declarationSignatures.$inferSelect): Signature => ({
  election_id: row.electionId,
  name: row.name,
  role: row.role,
  fingerprint: row.fingerprint,
  kind: row.kind,
  statement: row.statement,
  signature: row.signature,
  signed_at: row.signedAt.toISOString(),
});

/** The signatures of a closed election, first first (403 before the close). */
export async function listSignatures(ctx: Core, id: ElectionId): Promise<Signature[]> {
  const state = await readState(ctx.database.db, id);
  if (!state.closedAt) throw AppError.say('FORBIDDEN', 'results.declaredAtClose');
  const rows = await ctx.database.db
    .select()
    .from(declarationSignatures)
    .where(eq(declarationSignatures.electionId, id))
    .orderBy(asc(declarationSignatures.id));
  return rows.map(toSignature);
}

/** The signers' public keys, as `keys.json` holds them. */
export async function signerKeys(
  ctx: Core,
  id: ElectionId,
): Promise<{ fingerprint: string; public_key: string; name: string; role: string }[]> {
  const rows = await ctx.database.db
    .select()
    .from(declarationSignatures)
    .where(eq(declarationSignatures.electionId, id))
    .orderBy(asc(declarationSignatures.id));
  const seen = new Map<string, { fingerprint: string; public_key: string; name: string; role: string }>();
  for (const r of rows) seen.set(r.fingerprint, { fingerprint: r.fingerprint, public_key: r.publicKey, name: r.name, role: r.role });
  return [...seen.values()];
}

/**
 * `POST elections/{id}/signatures`: checks the signature with the caller's newest key, which must
 * have been registered before the close (403), over the declaration text (422 when it does not
 * verify); one per signer and election (409).
 */
export async function signDeclaration(
  ctx: ResultsContext,
  caller: SignedInActor,
  id: ElectionId,
  input: { kind: SignatureKind; statement: string; signature: string },
): Promise<Signature> {
  const actor = asStaff(caller);
  const state = await readState(ctx.database.db, id);
  if (!state.closedAt) throw AppError.say('FORBIDDEN', 'error.signAfterClose');
  const [key] = await ctx.database.db
    .select()
    .from(signingKeys)
    .where(eq(signingKeys.staffId, actor.id))
    .orderBy(desc(signingKeys.id))
    .limit(1);
  if (!key) throw AppError.say('FORBIDDEN', 'error.noSigningKey');
  if (key.registeredAt.getTime() > state.closedAt.getTime()) throw AppError.say('FORBIDDEN', 'error.keyAfterClose');
  const { digest } = await evidenceManifest(ctx, id);
  if (!verifyEd25519(key.publicKey, declarationText(id, digest, input.kind, input.statement), input.signature))
    throw AppError.fieldsSaid({ signature: [{ id: 'field.signatureInvalid' }] });
  const [existing] = await ctx.database.db
    .select({ id: declarationSignatures.id })
    .from(declarationSignatures)
    .where(and(eq(declarationSignatures.electionId, id), eq(declarationSignatures.staffId, actor.id)));
  if (existing) throw AppError.say('CONFLICT', 'error.alreadySigned');
  const signedAt = ctx.now();
  try {
    const row = await inTransaction(ctx, 'Declaration signed', async (tx) => {
      const [inserted] = await tx
        .insert(declarationSignatures)
        .values({
          electionId: id,
          staffId: actor.id,
          keyId: key.id,
          name: actor.name,
          role: actor.role,
          fingerprint: key.fingerprint,
          publicKey: key.publicKey,
          kind: input.kind,
          statement: input.statement,
          digest,
          signature: input.signature,
          signedAt,
        })
        .returning();
      await recordActivity(
        ctx,
        {
          name: actor.name,
          userId: actor.id,
          userType: actor.role,
          activity: input.kind === 'certify' ? 'Certified the result' : 'Disputed the result',
          data: `${await electionSubject(tx, id)}; key ${key.fingerprint}`,
          ip: actor.ip,
          status: 'success',
        },
        tx,
      );
      return inserted!;
    });
    return toSignature(row);
  } catch (err) {
    if (uniqueViolation(err)) throw AppError.say('CONFLICT', 'error.alreadySigned');
    throw err;
  }
}
