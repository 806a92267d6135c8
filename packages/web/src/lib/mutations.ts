import { useCallback } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { CONTACT_CHANGE_AFTER_VOTE } from '@kura/contract';
import { toast } from '@/hooks/use-toast';
import { api } from './api';
import { t } from '@/i18n';
import { errorIssue, errorMessage, errorStatus, firstFieldError } from './errors';
import { electionKey, queryKeys } from './queries';
import { saveOwnLanguage } from './own-language';

/**
 * The one home of the app's writes (next to lib/queries.ts, the reads; docs/architecture.md
 * "How to add a screen"): each hook is one contract route's mutation that owns what follows it,
 * the lists it refreshes on success and the toast of its failure. Screens call `mutateAsync` for
 * what is theirs alone (a success toast, closing a dialog, field messages, navigation) and never
 * refresh a list or toast a failure themselves.
 */

/** The red toast of a refused or failed call: the web's own words from the catalogue (`t`), the server's as it said them (docs/i18n.md). */
export function failureToast(title: string, description?: string) {
  toast({ variant: 'destructive', title, description });
}

/** The first field message of a 422, else the server's message, else `fallback`. */
const fieldOrMessage = (err: unknown, fallback?: string) => firstFieldError(err) ?? errorMessage(err) ?? fallback;

/** Login failure (docs/screens.md "Messages and timings"): 'An error occurred' with the server message; a 401 gives 'Invalid credentials'. */
export function loginFailureToast(err: unknown) {
  failureToast(
    t('toast.errorOccurred'),
    errorStatus(err) === 401 ? t('toast.invalidCredentials') : fieldOrMessage(err, t('common.pleaseTryAgain')),
  );
}

/** The toast of a refused one-time code or token. */
const codeFailureToast = (err: unknown) => failureToast(t('toast.followingIssue'), errorMessage(err) ?? t('common.pleaseTryAgain'));

/**
 * A mutation of the voting and results family acting on one election: every call carries
 * `?election_id=N` (docs/api.md "Many elections, motions and ranked counts"); without an election,
 * the calls go bare and act on the current one.
 */
function inElection<M extends { mutate: unknown; mutateAsync: unknown }>(mutation: M, election: number | undefined): M {
  if (election === undefined) return mutation;
  type Call = (v: { query?: object }, o?: unknown) => unknown;
  const scope = (v: { query?: object }) => ({ ...v, query: { ...v.query, election_id: election } });
  const mutate = mutation.mutate as Call;
  const mutateAsync = mutation.mutateAsync as Call;
  return {
    ...mutation,
    mutate: (v: { query?: object }, o?: unknown) => mutate(scope(v), o),
    mutateAsync: (v: { query?: object }, o?: unknown) => mutateAsync(scope(v), o),
  };
}

/** The election entries (GET election, of any election), not their status. */
const electionEntries = { queryKey: queryKeys.election, predicate: (q: { queryKey: readonly unknown[] }) => q.queryKey[1] !== 'status' };

function useRefresh() {
  const queryClient = useQueryClient();
  return (...keys: QueryKey[]) => Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey }))).then(() => undefined);
}

// --- sign-in and sign-up -------------------------------------------------------------------------

/**
 * Member sign-in, step 1: the code goes to the member's phone. An unknown identifier (404) is said
 * on the form itself (docs/screens.md "Sign-in and session loss"), not in a toast.
 */
export function useVerifyPhone() {
  return api.auth.verifyPhone.useMutation({
    onError: (err) => {
      if (errorStatus(err) !== 404) failureToast(t('toast.belowIssue'), errorMessage(err) ?? t('common.pleaseTryAgain'));
    },
  });
}

/** Member sign-in, step 2: the code. */
export function useVerifySms() {
  return api.auth.verifySms.useMutation({ onError: codeFailureToast });
}

export function useMemberGoogleLogin() {
  return api.auth.loginGoogle.useMutation({
    onError: (err) =>
      failureToast(
        t('toast.errorOccurred'),
        errorStatus(err) === 401 ? t('toast.invalidCredentials') : (errorMessage(err) ?? t('common.pleaseTryAgain')),
      ),
  });
}

/** Staff sign-in, step 1 (admin: username and password; agent: email): the code is emailed. */
export function useStaffLogin() {
  const admin = api.auth.loginAdmin.useMutation({ onError: loginFailureToast });
  const agent = api.auth.loginAgent.useMutation({ onError: loginFailureToast });
  return { admin, agent };
}

/** Staff sign-in, step 2: the emailed code. */
export function useStaffVerify() {
  const admin = api.auth.verifyAdmin.useMutation({ onError: codeFailureToast });
  const agent = api.auth.verifyAgent.useMutation({ onError: codeFailureToast });
  return { admin, agent };
}

export function useStaffGoogleLogin() {
  const admin = api.auth.loginAdminGoogle.useMutation({ onError: loginFailureToast });
  const agent = api.auth.loginAgentGoogle.useMutation({ onError: loginFailureToast });
  return { admin, agent };
}

/** Authenticator sign-in, step 1: the pin (the screen also shows the message under the field). */
export function useSignPass() {
  return api.auth.signPass.useMutation({
    onError: (err) => failureToast(t('toast.followingIssue'), errorIssue(err) ?? errorMessage(err) ?? t('common.pleaseTryAgain')),
  });
}

/** Authenticator sign-in, step 2: the token from the app. */
export function useVerifyTokenLogin() {
  return api.auth.verifyTokenLogin.useMutation({
    onError: (err) => failureToast(t('toast.followingIssue'), errorIssue(err) ?? errorMessage(err) ?? t('common.pleaseTryAgain')),
  });
}

/** Authenticator set-up: the QR code and key. */
export function useSendQr() {
  return api.auth.sendQr.useMutation({
    onError: (err) => failureToast(t('qr.failed'), errorMessage(err) ?? t('qr.failed')),
  });
}

/** Authenticator set-up: the first token confirms it. */
export function useConfirmAuthenticator() {
  return api.auth.verifyToken.useMutation({ onError: codeFailureToast });
}

export function useChangePin() {
  return api.auth.changePin.useMutation({
    onError: (err) => failureToast(t('toast.pinFailed'), fieldOrMessage(err)),
  });
}

function signupFailure(err: unknown) {
  failureToast(
    t('toast.errorOccurred'),
    errorStatus(err) === 409 ? t('toast.accountExists') : t('toast.differentVoterId', { reason: errorMessage(err) ?? t('crash.message') }),
  );
}

export function useSignup() {
  return api.auth.signup.useMutation({ onError: signupFailure });
}

export function useVerifySignup() {
  return api.auth.verifySignup.useMutation({
    onError: (err) =>
      failureToast(
        t('toast.errorOccurred'),
        errorStatus(err) === 409 ? t('toast.accountExists') : (errorMessage(err) ?? t('crash.message')),
      ),
  });
}

/** The public member-details check: its failure shows on the page, not in a toast. */
export function useMemberDetails() {
  return api.members.getMemberDetails.useMutation();
}

// --- voter ---------------------------------------------------------------------------------------

/** Casting the ballot: the receipts and the dashboard refresh; a 409 (already voted) re-reads the receipts, a 403 (closed) the status. */
export function useCastVote(election?: number) {
  const queryClient = useQueryClient();
  const refresh = (queryKey: QueryKey) => void queryClient.invalidateQueries({ queryKey });
  const mutation = api.ballots.castVote.useMutation({
    onSuccess: () => {
      refresh(queryKeys.myVvpat);
      refresh(queryKeys.dashboard);
    },
    onError: (err) => {
      failureToast(t('toast.voteFailed'), fieldOrMessage(err, t('common.pleaseTryAgain')));
      if (errorStatus(err) === 409) refresh(queryKeys.myVvpat);
      if (errorStatus(err) === 403) refresh(queryKeys.electionStatus);
    },
  });
  return inElection(mutation, election);
}

export function useReportIssue() {
  return api.help.reportIssue.useMutation({
    onError: (err) => failureToast(t('toast.issueFailed'), errorMessage(err) ?? t('common.somethingWrong')),
  });
}

// --- the member's own language -------------------------------------------------------------------

/**
 * A signed-in member's language choice, saved on their record (PUT me/language, docs/api.md
 * "Languages") so codes, reminders and the next sign-in on any device speak it: pending on this
 * device until the record answers, the saves in the order made, each with `keepalive`
 * (lib/own-language.ts `saveOwnLanguage`, which the voter guard also sends a pending choice with).
 * A failure is quiet: the choice still holds on this device.
 */
export function useSaveOwnLanguage(): (code: string) => void {
  const queryClient = useQueryClient();
  return useCallback((code: string) => void saveOwnLanguage(queryClient, code), [queryClient]);
}

// --- back office ---------------------------------------------------------------------------------

/**
 * Editing a member. A refused contact change of a member who voted (CONTACT_CHANGE_AFTER_VOTE) is
 * not a failure toast: the dialog asks the admin to confirm it.
 */
/** POST members: one new member; field messages go to the dialog, anything else is toasted. */
export function useCreateMember() {
  const refresh = useRefresh();
  return api.members.createMember.useMutation({
    onSuccess: () => refresh(queryKeys.members),
    onError: (err) => {
      if (errorStatus(err) === 422) return;
      failureToast(t('admin.toast.addMember'), fieldOrMessage(err));
    },
  });
}

/** DELETE members/{id}: a 409 (voted, stands, frozen roll) is shown by the confirmation dialog. */
export function useDeleteMember() {
  const refresh = useRefresh();
  return api.members.deleteMember.useMutation({
    onSuccess: () => refresh(queryKeys.members),
    onError: (err) => {
      if (errorStatus(err) === 409) return;
      failureToast(t('admin.toast.removeMember'), fieldOrMessage(err));
    },
  });
}

export function useUpdateMember() {
  const refresh = useRefresh();
  return api.members.updateMember.useMutation({
    onSuccess: () => refresh(queryKeys.members),
    onError: (err, variables) => {
      if (!variables.body.confirm_contact_change && errorIssue(err) === CONTACT_CHANGE_AFTER_VOTE) return;
      failureToast(t('admin.toast.updateMember'), fieldOrMessage(err));
    },
  });
}

export function useAssignPositions(election?: number) {
  const refresh = useRefresh();
  const mutation = api.members.assignPositions.useMutation({
    onSuccess: () => refresh(queryKeys.members, queryKeys.candidates),
    onError: () => failureToast(t('admin.toast.assignPosition'), t('admin.tryAgain')),
  });
  return inElection(mutation, election);
}

/** The CSV import; a file with bad lines is answered 200 with the lines (nothing imported, nothing to refresh). */
export function useImportMembers() {
  const refresh = useRefresh();
  return api.members.importMembers.useMutation({
    onSuccess: (res, variables) => {
      if (res.status !== 200 || res.body.errors.length > 0) return;
      return refresh(queryKeys.members, ...(variables.query?.create_branches ? [queryKeys.branches] : []));
    },
    onError: (err) => failureToast(t('admin.import.failed'), errorMessage(err) ?? t('admin.tryAgain')),
  });
}

/** Editing a candidate; `failed` is the failure toast's title (each screen names its own edit). */
export function useUpdateCandidate(failed: string, election?: number) {
  const refresh = useRefresh();
  const mutation = api.candidates.updateCandidate.useMutation({
    onSuccess: () => refresh(queryKeys.candidates, queryKeys.members),
    onError: (err) => failureToast(failed, fieldOrMessage(err, t('admin.tryAgain'))),
  });
  return inElection(mutation, election);
}

/** A reminder or its dry run (a count, nothing to refresh). */
export function useCreateReminder(election?: number) {
  const refresh = useRefresh();
  const mutation = api.reminders.createReminder.useMutation({
    onSuccess: (_res, variables) => (variables.body.dry_run ? undefined : refresh(queryKeys.reminders)),
    onError: (err) => failureToast(t('admin.toast.reminder'), fieldOrMessage(err, t('toast.somethingWrong'))),
  });
  return inElection(mutation, election);
}

/** Voting on or off: the status takes the answer, the election (its phase) is re-read. */
export function useToggleElection(election?: number) {
  const queryClient = useQueryClient();
  const mutation = api.elections.toggleElection.useMutation({
    onSuccess: (res) => {
      if (res.status !== 200) return;
      queryClient.setQueryData(electionKey(queryKeys.electionStatus, election), {
        status: 200,
        headers: new Headers(),
        body: { active: res.body.active },
      });
      // The phase moved: the election entries (the current one's and this one's) and the list of elections.
      void queryClient.invalidateQueries(electionEntries);
      void queryClient.invalidateQueries({ queryKey: queryKeys.elections });
    },
    onError: (err) => {
      failureToast(t('admin.toast.electionStatus'), errorMessage(err) ?? t('toast.somethingWrong'));
      void queryClient.invalidateQueries({ queryKey: queryKeys.electionStatus });
    },
  });
  return inElection(mutation, election);
}

function useRefreshElection() {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries(electionEntries);
    await queryClient.invalidateQueries({ queryKey: queryKeys.electionStatus });
    await queryClient.invalidateQueries({ queryKey: queryKeys.elections });
  };
}

/** Saving election settings; `failed` is the failure toast's title (the schedule, the organisation texts). */
export function useUpdateElection(failed = t('admin.toast.schedule'), election?: number) {
  const refresh = useRefreshElection();
  const mutation = api.elections.updateElection.useMutation({
    onSuccess: refresh,
    onError: (err) => failureToast(failed, fieldOrMessage(err, t('toast.somethingWrong'))),
  });
  return inElection(mutation, election);
}

export function useCloseElection(election?: number) {
  const refresh = useRefreshElection();
  const mutation = api.lifecycle.closeElection.useMutation({
    onSuccess: refresh,
    onError: (err) => failureToast(t('admin.toast.close'), errorMessage(err) ?? t('toast.somethingWrong')),
  });
  return inElection(mutation, election);
}

// --- the organisation and its elections ----------------------------------------------------------

/** The organisation's texts, time zone or current election: every election entry shows them. */
export function useUpdateOrganisation() {
  const refresh = useRefresh();
  const refreshElection = useRefreshElection();
  return api.organisation.updateOrganisation.useMutation({
    onSuccess: () => Promise.all([refresh(queryKeys.organisation), refreshElection()]).then(() => undefined),
    onError: (err) => failureToast(t('admin.toast.saveOrganisation'), fieldOrMessage(err, t('toast.somethingWrong'))),
  });
}

/** The election changes below refresh the list of elections and the election entries (the current one may have moved). */
function useRefreshElections() {
  const refresh = useRefresh();
  const refreshElection = useRefreshElection();
  return () => Promise.all([refresh(queryKeys.organisation), refreshElection()]).then(() => undefined);
}

export function useCreateElection() {
  const refresh = useRefreshElections();
  return api.organisation.createElection.useMutation({
    onSuccess: refresh,
    onError: (err) => failureToast(t('admin.toast.createElection'), fieldOrMessage(err, t('toast.somethingWrong'))),
  });
}

export function useUpdateElectionById() {
  const refresh = useRefreshElections();
  return api.organisation.updateElectionById.useMutation({
    onSuccess: refresh,
    onError: (err) => failureToast(t('admin.toast.saveElection'), fieldOrMessage(err, t('toast.somethingWrong'))),
  });
}

export function useCopyElection() {
  const refresh = useRefreshElections();
  return api.organisation.copyElection.useMutation({
    onSuccess: refresh,
    onError: (err) => failureToast(t('admin.toast.copyElection'), fieldOrMessage(err, t('toast.somethingWrong'))),
  });
}

/** Closed elections only: the server answers 409 otherwise. */
export function useArchiveElection() {
  const refresh = useRefreshElections();
  return api.organisation.archiveElection.useMutation({
    onSuccess: refresh,
    onError: (err) => failureToast(t('admin.toast.archiveElection'), errorMessage(err) ?? t('toast.somethingWrong')),
  });
}

/** While no vote was ever cast in it: the server answers 409 otherwise. */
export function useDeleteElection() {
  const refresh = useRefreshElections();
  return api.organisation.deleteElection.useMutation({
    onSuccess: refresh,
    onError: (err) => failureToast(t('admin.toast.deleteElection'), errorMessage(err) ?? t('toast.somethingWrong')),
  });
}

/**
 * PUT organisation/attributes: the whole list; a 409 (a rule uses the key removed or retyped) is
 * shown by the section, which names the rule.
 */
export function usePutAttributes() {
  const refresh = useRefresh();
  return api.register.putAttributes.useMutation({
    onSuccess: () => refresh(queryKeys.memberAttributes, queryKeys.members),
    onError: (err) => failureToast(t('admin.toast.saveAttributes'), fieldOrMessage(err, t('toast.somethingWrong'))),
  });
}

// --- staff (admins and agents) ------------------------------------------------------------------

export function useCreateStaff() {
  const refresh = useRefresh();
  return api.staff.createStaff.useMutation({ onSuccess: () => refresh(queryKeys.staff, queryKeys.staffStatus) });
}

export function useDeleteStaff() {
  const refresh = useRefresh();
  return api.staff.deleteStaff.useMutation({ onSettled: () => refresh(queryKeys.staff) });
}

/** One's own display name: the staff list and the header's name (validate/admin) follow it. */
export function useUpdateOwnStaff() {
  const refresh = useRefresh();
  return api.staff.updateOwnStaff.useMutation({ onSuccess: () => refresh(queryKeys.staff, queryKeys.validateStaff) });
}

export function useSetStaffPassword() {
  return api.staff.setStaffPassword.useMutation();
}

// --- set-up (branches and positions) -------------------------------------------------------------

/** The reason a set-up change was refused: the 409/422 message, or a generic one. */
export const setupFailureReason = (err: unknown) => fieldOrMessage(err, t('admin.tryAgain'))!;

export function useCreateBranch() {
  const refresh = useRefresh();
  return api.setup.createBranch.useMutation({
    onSuccess: () => refresh(queryKeys.branches),
    onError: (err) => failureToast(t('admin.toast.addBranch'), setupFailureReason(err)),
  });
}

export function useRenameBranch() {
  const refresh = useRefresh();
  return api.setup.updateBranch.useMutation({
    // A branch position's level is the branch's name.
    onSuccess: () => refresh(queryKeys.branches, queryKeys.positions),
    onError: (err) => failureToast(t('admin.toast.renameBranch'), setupFailureReason(err)),
  });
}

export function useDeleteBranch() {
  const refresh = useRefresh();
  return api.setup.deleteBranch.useMutation({
    onSuccess: () => refresh(queryKeys.branches),
    onError: (err) => failureToast(t('admin.toast.deleteBranch'), setupFailureReason(err)),
  });
}

/** Position changes re-read the positions whatever the answer (a refusal may mean the list moved on). */
export function useCreatePosition(election?: number) {
  const refresh = useRefresh();
  const mutation = api.setup.createPosition.useMutation({
    onSettled: () => refresh(queryKeys.positions),
    onError: (err) => failureToast(t('admin.toast.addPosition'), setupFailureReason(err)),
  });
  return inElection(mutation, election);
}

export function useUpdatePosition() {
  const refresh = useRefresh();
  return api.setup.updatePosition.useMutation({
    onSettled: () => refresh(queryKeys.positions),
    onError: (err) => failureToast(t('admin.toast.updatePosition'), setupFailureReason(err)),
  });
}

/** The whole order in one call (PUT positions/order): all or nothing. */
export function useReorderPositions(election?: number) {
  const refresh = useRefresh();
  const mutation = api.setup.reorderPositions.useMutation({
    onSettled: () => refresh(queryKeys.positions),
    onError: (err) => failureToast(t('admin.toast.movePosition'), setupFailureReason(err)),
  });
  return inElection(mutation, election);
}

/** Deleting a position deletes its candidacies too. */
export function useDeletePosition() {
  const refresh = useRefresh();
  return api.setup.deletePosition.useMutation({
    onSettled: () => refresh(queryKeys.positions, queryKeys.candidates),
    onError: (err) => failureToast(t('admin.toast.deletePosition'), setupFailureReason(err)),
  });
}

// --- the declaration, signed ---------------------------------------------------------------------

/** PUT staff/signing-key: the screen shows its own refusal next to the button (docs/screens.md "Declaration"). */
export function usePutSigningKey() {
  return api.evidence.putSigningKey.useMutation();
}

/** POST elections/{id}/signatures: refreshes the election's signatures; the form shows a refusal itself. */
export function useSignDeclaration(id: number) {
  const refresh = useRefresh();
  return api.evidence.postSignature.useMutation({
    onSuccess: () => refresh([...queryKeys.signatures, id]),
  });
}

// --- nominations (docs/api.md "Nominations") -------------------------------------------------------

/** Every nomination list (mine, the queue, the public one) and, once one is decided, the candidates. */
function useNominationRefresh() {
  const refresh = useRefresh();
  return () => refresh(queryKeys.nominations, queryKeys.candidates);
}

/** A nomination: the window, the roles and each supporter's rule answer in the toast (the member or field named). */
export function useCreateNomination(election?: number) {
  const refresh = useNominationRefresh();
  const mutation = api.nominations.createNomination.useMutation({
    onSuccess: refresh,
    onError: (err) => failureToast(t('toast.nominationFailed'), fieldOrMessage(err, t('admin.tryAgain'))),
  });
  return inElection(mutation, election);
}

export function useSupportNomination() {
  const refresh = useNominationRefresh();
  return api.nominations.supportNomination.useMutation({
    onSuccess: refresh,
    onError: (err) => failureToast(t('toast.nominationAnswerFailed'), fieldOrMessage(err, t('admin.tryAgain'))),
  });
}

export function useAcceptNomination() {
  const refresh = useNominationRefresh();
  return api.nominations.acceptNomination.useMutation({
    onSuccess: refresh,
    onError: (err) => failureToast(t('toast.nominationAnswerFailed'), fieldOrMessage(err, t('admin.tryAgain'))),
  });
}

export function useWithdrawNomination() {
  const refresh = useNominationRefresh();
  return api.nominations.withdrawNomination.useMutation({
    onSuccess: refresh,
    onError: (err) => failureToast(t('toast.nominationWithdrawFailed'), fieldOrMessage(err, t('admin.tryAgain'))),
  });
}

export function useAppealNomination() {
  const refresh = useNominationRefresh();
  return api.nominations.appealNomination.useMutation({
    onSuccess: refresh,
    onError: (err) => failureToast(t('toast.appealFailed'), fieldOrMessage(err, t('admin.tryAgain'))),
  });
}

export function useDecideNomination() {
  const refresh = useNominationRefresh();
  return api.nominations.decideNomination.useMutation({
    onSuccess: refresh,
    onError: (err) => failureToast(t('toast.decisionFailed'), fieldOrMessage(err, t('admin.tryAgain'))),
  });
}

export function useDecideAppeal() {
  const refresh = useNominationRefresh();
  return api.nominations.decideAppeal.useMutation({
    onSuccess: refresh,
    onError: (err) => failureToast(t('toast.decisionFailed'), fieldOrMessage(err, t('admin.tryAgain'))),
  });
}

// --- the register (docs/api.md "The register: member attributes, eligibility rules and inspection") --

/** POST psk/register/claims: the member's claim; the window, an objection's member and the limit in the toast. */
export function useFileClaim(election?: number) {
  const refresh = useRefresh();
  const mutation = api.register.fileClaim.useMutation({
    onSuccess: () => refresh(queryKeys.register),
    onError: (err) => failureToast(t('register.msg.claimFailed'), fieldOrMessage(err, t('admin.tryAgain'))),
  });
  return inElection(mutation, election);
}

/** POST register/claims/{id}/ruling: a refusal (409: already ruled, voting open) is shown by the confirmation dialog. */
export function useRuleOnClaim() {
  const refresh = useRefresh();
  return api.register.ruleOnClaim.useMutation({
    onSuccess: () => refresh(queryKeys.register),
  });
}
