import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import i18next from 'eslint-plugin-i18next';

const MODULE_BOUNDARY =
  "Import another server module through its index.ts (e.g. '../ballots', not '../ballots/mixer'); export what you need from that module's index.ts.";

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/routeTree.gen.ts',
      'data/**',
      '**/data/**',
      'migrations/**',
      'packages/web/e2e/screenshots/**',
      '**/*.gen.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
    },
  },
  // The rules of hooks and the React Compiler's checks for the web app (eslint-plugin-react-hooks'
  // recommended set); a missing effect dependency is an error, not a warning.
  {
    files: ['packages/web/src/**/*.{ts,tsx}'],
    // The set-up page is being split into screens of their own; they take the rules then.
    ignores: ['packages/web/src/components/admin/setup-page.tsx'],
    ...reactHooks.configs.flat.recommended,
    rules: { ...reactHooks.configs.flat.recommended.rules, 'react-hooks/exhaustive-deps': 'error' },
  },
  // No user-facing literal in the JSX of the screens moved into the message catalogues (docs/i18n.md):
  // the voter, public and staff screens.
  {
    files: [
      'packages/web/src/components/auth/*.tsx',
      'packages/web/src/components/{colours/colour-dialog,help/issue-dialog,error-boundary,ui/toaster}.tsx',
      'packages/web/src/components/ballot/*.tsx',
      'packages/web/src/components/layout/*.tsx',
      'packages/web/src/components/public/{commitments-page,elections-page,landing-page,receipt-page}.tsx',
      'packages/web/src/components/results/{declaration-sections,position-results,results-page,results-rows,roll-summary}.tsx',
      'packages/web/src/components/voter/{dashboard-page,education-page,elect-page,my-elections,nominate-page,vvpat-page}.tsx',
      'packages/web/src/routes/{__root,_voter,_admin,_agent}.tsx',
      // staff screens
      'packages/web/src/components/staff/*.tsx',
      'packages/web/src/components/agent/*.tsx',
      'packages/web/src/components/admin/**/*.tsx',
    ],
    ignores: ['**/*.test.tsx'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'jsx-attributes': {
            include: [
              'aria-label',
              'aria-roledescription',
              'alt',
              'title',
              'placeholder',
              'label',
              'description',
              'prompt',
              'submitLabel',
              'noVotesText',
              'hiddenText',
            ],
          },
          callees: { exclude: ['t', 'tRich', 'tReceived', 'translate', '(\\w+\\.)?register'] },
          words: { exclude: ['[0-9!-/:-@[-`{-~·©#%–—]+', '[A-Z_-]+'] },
        },
      ],
    },
  },
  // Server modules talk to each other through their public index.ts only (docs/architecture.md
  // "Module map"): `../ballots` is fine, `../ballots/mixer` is another module's internals.
  {
    files: ['packages/server/src/modules/*/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^\\.\\./(?!\\.\\.)[^/]+/', message: MODULE_BOUNDARY }] }],
    },
  },
  {
    files: ['packages/server/src/modules/index.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^\\./[^/]+/', message: MODULE_BOUNDARY }] }],
    },
  },
  {
    files: ['packages/server/src/**/*.ts', 'packages/server/test/**/*.ts'],
    ignores: ['packages/server/src/modules/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '(^|/)modules/[^/]+/', message: MODULE_BOUNDARY }] }],
    },
  },
  // The stores (db/) know no HTTP: they throw their own failures (db/errors.ts), which errors.ts
  // `refusalOf` turns into refusals (docs/architecture.md "Where state lives").
  {
    files: ['packages/server/src/db/**/*.ts'],
    ignores: ['packages/server/src/db/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '(^|/)modules/[^/]+/', message: MODULE_BOUNDARY },
            {
              regex: '^(\\.\\./)+(errors|http/)',
              message: 'A store knows no HTTP: throw a failure of db/errors.ts (errors.ts refusalOf maps it).',
            },
          ],
        },
      ],
    },
  },
  // A handler reads its query through ts-rest's typed `query` (the contract declares it; the
  // election through `electionOf(ctx, query)`), never the raw `req.query` (docs/architecture.md).
  {
    files: ['packages/server/src/**/*.ts'],
    ignores: [
      'packages/server/src/**/*.test.ts',
      // Its own signed-URL query, outside ts-rest.
      'packages/server/src/lib/report-images.ts',
      // The lock helpers themselves, the migration lock and cast_vote's SQL.
      'packages/server/src/db/locks.ts',
      'packages/server/src/db/migrate.ts',
      'packages/server/src/db/schema/functions.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='query'][object.name='req']",
          message: 'Read the typed `query` of the ts-rest handler (and the election with electionOf(ctx, query)), not req.query.',
        },
        {
          selector: 'TemplateElement[value.raw=/pg_(try_)?advisory/]',
          message: 'Take advisory locks through the helpers of db/locks.ts (lockElection, lockMemberVotes, …), which check their order.',
        },
        // Every write through the unit of work (lib/unit-of-work.ts: a conflict run again, effects
        // after the commit), never a transaction of its own (docs/architecture.md "One unit of work").
        {
          selector: "CallExpression[callee.property.name='transaction']",
          message:
            'Open a transaction with inTransaction (or auditedTransaction) from lib/unit-of-work.ts, and queue effects with afterCommit.',
        },
        // A snapshot of the box waits for a close's re-mix first (its truncate empties an older
        // snapshot's box): REPEATABLE READ only through lib/box-snapshot.ts.
        {
          selector: "Property[key.name='isolationLevel'] Literal[value='repeatable read']",
          message: 'Read the ballot box in one snapshot with inBoxSnapshot (lib/box-snapshot.ts): it waits for a close’s re-mix first.',
        },
      ],
    },
  },
);
