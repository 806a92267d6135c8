/**
 * The contract's messages by code (docs/i18n.md "Messages by code", ADR 013). A schema's message
 * is never English text: it is `said(id, values)`, a code with its values, which the server formats
 * in the caller's language for the error envelope (English on the wire by default) and the web app
 * in the reader's language under a field. The contract owns these messages in every shipped
 * language (`CONTRACT_MESSAGES`), so the server's and the web's catalogues do not repeat them, and
 * the compiler refuses a language that lacks one.
 *
 * Templates are ICU messages with simple placeholders only (`{n}`, `{field}`); a literal brace is
 * quoted (`'{'`). A value is a string, a number, or a list of strings (said as "a, b or c" in the
 * language). `field` and `what` name a field: a name `FIELD_NAMES` knows is said in the language.
 */

export type ContractValue = string | number | readonly string[];
export type ContractValues = Readonly<Record<string, ContractValue>>;

const en = {
  'field.areRequired': 'The {field} are required',
  'field.atMostAttributes': 'At most {n} attributes',
  'field.atMostBranches': 'At most {n} branches',
  'field.atMostCandidatesPerPosition': 'At most {n} candidates per position',
  'field.atMostPositions': 'At most {n} positions',
  'field.atMostPositionsPerVote': 'At most {n} positions per vote',
  'field.atMostRules': 'At most {n} rules',
  'field.atMostSupporters': 'At most {n} supporters',
  'field.atMostValues': 'At most {n} values',
  'field.attributeKey': 'The attribute must be an attribute key',
  'field.attributeKeyBuiltIn': 'The key is a column of the register already',
  'field.attributeKeyFormat': 'The key must start with a small letter and hold only small letters, digits and "_" (at most 40)',
  'field.attributeKeyTwice': 'The key {key} appears twice',
  'field.attributeTakes': 'A {type} attribute takes {ops}',
  'field.attributeUnknown': 'No attribute has the key {key}',
  'field.attributesList': 'The data must be a list of attributes',
  'field.attributesObject': 'The attributes must be an object of attribute keys',
  'field.branchId': 'A branch must be a branch id',
  'field.branchNotNational': 'A branch cannot be called National',
  'field.branchOrEvery': 'Choose one branch or every branch, not both',
  'field.candidateId': 'The candidate must be a candidate id',
  'field.candidateIds': 'The candidates must be candidate ids',
  'field.candidatesObject': 'The candidates field must be an object of position id to candidate id',
  'field.channelName': 'Not a channel',
  'field.chooseAtLeastOne': 'Choose at least one candidate',
  'field.chooseCandidate': 'Choose a candidate',
  'field.closesAfterOpens': 'The closing time must be after the opening time',
  'field.consent': 'You must accept the data collection, privacy and terms to continue',
  'field.countyIdOrName': 'The county must be a branch id or a branch name',
  'field.credentialTooLong': 'The credential is too long',
  'field.currentElectionId': 'The current election must be an election id',
  'field.currentPin': 'Enter your current pin',
  'field.dateTime': 'The {field} must be a date and time',
  'field.digitsOnly': 'Should only contain digits',
  'field.ed25519Key': 'Must be the base64 of a 32-byte Ed25519 public key',
  'field.ed25519Signature': 'Must be the base64 of a 64-byte Ed25519 signature',
  'field.emailInvalid': 'Enter a valid email address',
  'field.enterMemberNumber': 'Enter your member number',
  'field.enterMemberNumberOrEmail': 'Enter your member number or email',
  'field.enterOtp': 'Enter 6 digit secure OTP',
  'field.enterPhone': 'Enter your phone number',
  'field.enterVoterId': 'Enter your voter ID',
  'field.googleButton': 'Please click on the Google Button',
  'field.googleCredential': 'Google sign-in requires a credential',
  'field.identifierFormat': 'Should only contain digits, be a valid email address, or follow CMAKE##/## format',
  'field.isRequired': 'The {field} field is required',
  'field.isRequiredPlain': 'The {field} is required',
  'field.isoDateTime': 'The {field} must be an ISO 8601 date and time with an offset',
  'field.listOneValue': 'List at least one value',
  'field.maxLength': 'Must be at most {n} characters long',
  'field.memberNoDefault': 'The member number must be 1 to 32 letters, digits, "-", "/" or "."',
  'field.memberNoInvisible': 'The member number cannot contain invisible or control characters',
  'field.memberNoPattern': "The member number does not follow the organisation's format ({pattern})",
  'field.memberNoPatternInvalid': 'The member_no_pattern is not a valid regular expression',
  'field.memberNoPatternType': 'The member_no_pattern must be a regular expression or null',
  'field.memberNoPatternUnsafe':
    'The member_no_pattern may not repeat a group that itself repeats, nor refer back to a group: such patterns can take the server minutes to check one sign-in',
  'field.minLength': 'Must be at least {n} characters long',
  'field.motionNoMethod': 'A motion has no voting method',
  'field.motionNoNominations': 'A motion takes no nominations',
  'field.motionOneSeat': 'A motion has one seat',
  'field.mustBeAtLeast': 'The {field} must be at least {n}',
  'field.mustBeAtMost': 'The {field} must be at most {n}',
  'field.mustBeNumber': 'The {field} must be a number',
  'field.mustBePositive': 'The {field} must be a positive number',
  'field.mustBeText': 'The {field} must be text',
  'field.mustBeWhole': 'The {field} must be a whole number',
  'field.nameCharacters':
    'The {what} cannot contain invisible or control characters (such as a zero-width space, a direction mark, a tab or a line break)',
  'field.needsProposer': 'Without self-nomination a nomination needs at least one proposer',
  'field.newPin': 'Enter a new pin',
  'field.nominationObject': 'The nomination must be an object or null',
  'field.nominationsCloseAfterOpen': 'Nominations must close after they open',
  'field.nominationsObject': 'The nominations must be an object or null',
  'field.notEmpty': 'The {field} must not be empty',
  'field.objectionNamesMember': 'An objection names the member it objects to',
  'field.oneOf': 'The {field} must be {options}',
  'field.oneOfList': 'The {field} must be one of {options}',
  'field.onlyMotionQuorum': 'Only a motion has a quorum',
  'field.onlyMotionThreshold': 'Only a motion has a threshold',
  'field.phoneFormat': 'Enter a mobile number such as 0712 345 678 or +254 712 345 678',
  'field.pinFormat': 'The pin must be 4 to 8 digits',
  'field.pinTrivial': 'Choose a pin that is harder to guess: not one digit repeated or a run like 1234',
  'field.positionIdsList': 'The position_ids must be a list of position ids',
  'field.positionKey': 'Each key must be a position id',
  'field.positionTwice': 'Position {id} is listed more than once',
  'field.quorumMax': 'The quorum must be at most 100 percent',
  'field.quorumMin': 'The quorum must be at least 1 percent',
  'field.quorumWhole': 'The quorum must be a whole number of percent',
  'field.reasonWhenInvalid': 'The reason is required when a nomination is invalid',
  'field.registerClosesAfterOpens': 'The register must close after it opens',
  'field.registerClosesBeforeVoting': 'The register must close before voting opens',
  'field.required': 'This field is required',
  'field.rotateRankedOnly': "Only a ranked position's candidates can be rotated",
  'field.ruleValue': "The value must be a number, text, true or false, a list of texts, '{'years_before'}' or '{'days_before'}'",
  'field.ruleValueDate': "The value must be a date (YYYY-MM-DD), '{'years_before: n'}' or '{'days_before: n'}'",
  'field.ruleValueList': 'The value must be a list of texts',
  'field.rulesList': 'The rules must be a list of rules',
  'field.subjectMemberNo': 'The subject_member_no must be a member number',
  'field.supportEmail': 'The support email must be an email address',
  'field.supportEmailValid': 'The support email must be a valid email address',
  'field.supportersList': "The supporters must be a list of '{'member_no, role'}'",
  'field.timeZone': 'The time zone must be an IANA time zone name, e.g. Africa/Nairobi or Europe/London',
  'field.tooLarge': 'The {field} is too large',
  'field.translationMustBeText': 'The {field} translation must be text',
  'field.translationObject': 'A translation must be an object of field to text',
  'field.translationsObject': 'The translations must be an object of language to fields',
  'field.trueOrFalse': 'The {field} must be true or false',
  'field.websiteScheme': 'The website must start with http:// or https://',
  'field.websiteUrl': 'The website must be a URL',
  'field.websiteUrlExample': 'The website must be a URL, e.g. https://example.org',
} as const;

export type ContractMessageId = keyof typeof en;

const sw: Record<ContractMessageId, string> = {
  'field.areRequired': 'Sehemu ya {field} zinahitajika',
  'field.atMostAttributes': 'Sifa zisizidi {n}',
  'field.atMostBranches': 'Matawi yasizidi {n}',
  'field.atMostCandidatesPerPosition': 'Wagombea wasizidi {n} kwa kila nafasi',
  'field.atMostPositions': 'Nafasi zisizidi {n}',
  'field.atMostPositionsPerVote': 'Nafasi zisizidi {n} kwa kila kura',
  'field.atMostRules': 'Masharti yasizidi {n}',
  'field.atMostSupporters': 'Waungaji mkono wasizidi {n}',
  'field.atMostValues': 'Thamani zisizidi {n}',
  'field.attributeKey': 'Sifa lazima iwe ufunguo wa sifa',
  'field.attributeKeyBuiltIn': 'Ufunguo huu tayari ni safu ya rejista',
  'field.attributeKeyFormat': 'Ufunguo lazima uanze na herufi ndogo na uwe na herufi ndogo, tarakimu na "_" pekee (zisizozidi 40)',
  'field.attributeKeyTwice': 'Ufunguo {key} umetajwa mara mbili',
  'field.attributeTakes': 'Sifa ya aina {type} inakubali {ops}',
  'field.attributeUnknown': 'Hakuna sifa yenye ufunguo {key}',
  'field.attributesList': 'Data lazima iwe orodha ya sifa',
  'field.attributesObject': 'Sifa lazima ziwe kitu cha funguo za sifa',
  'field.branchId': 'Tawi lazima liwe kitambulisho cha tawi',
  'field.branchNotNational': 'Tawi haliwezi kuitwa National',
  'field.branchOrEvery': 'Chagua tawi moja au kila tawi, si vyote viwili',
  'field.candidateId': 'Mgombea lazima awe kitambulisho cha mgombea',
  'field.candidateIds': 'Wagombea lazima wawe vitambulisho vya wagombea',
  'field.candidatesObject': 'Sehemu ya wagombea lazima iwe kitu cha kitambulisho cha nafasi kwa kitambulisho cha mgombea',
  'field.channelName': 'Si chaneli',
  'field.chooseAtLeastOne': 'Chagua angalau mgombea mmoja',
  'field.chooseCandidate': 'Chagua mgombea',
  'field.closesAfterOpens': 'Muda wa kufunga lazima uwe baada ya muda wa kufungua',
  'field.consent': 'Lazima ukubali ukusanyaji wa data, sera ya faragha na masharti ili kuendelea',
  'field.countyIdOrName': 'Kaunti lazima iwe kitambulisho cha tawi au jina la tawi',
  'field.credentialTooLong': 'Uthibitisho ni mrefu mno',
  'field.currentElectionId': 'Uchaguzi wa sasa lazima uwe kitambulisho cha uchaguzi',
  'field.currentPin': 'Weka PIN yako ya sasa',
  'field.dateTime': 'Sehemu ya {field} lazima iwe tarehe na saa',
  'field.digitsOnly': 'Weka tarakimu tu',
  'field.ed25519Key': 'Lazima iwe base64 ya ufunguo wa umma wa Ed25519 wa baiti 32',
  'field.ed25519Signature': 'Lazima iwe base64 ya sahihi ya Ed25519 ya baiti 64',
  'field.emailInvalid': 'Weka barua pepe sahihi',
  'field.enterMemberNumber': 'Weka nambari yako ya mwanachama',
  'field.enterMemberNumberOrEmail': 'Weka nambari yako ya mwanachama au barua pepe',
  'field.enterOtp': 'Weka msimbo wa siri wa tarakimu 6',
  'field.enterPhone': 'Weka nambari yako ya simu',
  'field.enterVoterId': 'Weka nambari yako ya mpiga kura',
  'field.googleButton': 'Tafadhali bofya kitufe cha Google',
  'field.googleCredential': 'Kuingia kwa Google kunahitaji uthibitisho',
  'field.identifierFormat': 'Weka tarakimu tu, barua pepe sahihi, au muundo wa CMAKE##/##',
  'field.isRequired': 'Sehemu ya {field} inahitajika',
  'field.isRequiredPlain': 'Sehemu ya {field} inahitajika',
  'field.isoDateTime': 'Sehemu ya {field} lazima iwe tarehe na saa ya ISO 8601 yenye tofauti ya saa',
  'field.listOneValue': 'Orodhesha angalau thamani moja',
  'field.maxLength': 'Isizidi herufi {n}',
  'field.memberNoDefault': 'Nambari ya uanachama lazima iwe herufi, tarakimu, "-", "/" au "." 1 hadi 32',
  'field.memberNoInvisible': 'Nambari ya uanachama haiwezi kuwa na herufi zisizoonekana au za udhibiti',
  'field.memberNoPattern': 'Nambari ya uanachama haifuati muundo wa chama ({pattern})',
  'field.memberNoPatternInvalid': 'member_no_pattern si usemi sahihi wa kawaida (regular expression)',
  'field.memberNoPatternType': 'member_no_pattern lazima iwe usemi wa kawaida (regular expression) au null',
  'field.memberNoPatternUnsafe':
    'member_no_pattern haiwezi kurudia kikundi ambacho chenyewe kinarudiwa, wala kurejelea kikundi: mifumo kama hiyo inaweza kuchukua seva dakika kukagua kuingia mara moja',
  'field.minLength': 'Lazima iwe na angalau herufi {n}',
  'field.motionNoMethod': 'Hoja haina mbinu ya kupiga kura',
  'field.motionNoNominations': 'Hoja haina uteuzi',
  'field.motionOneSeat': 'Hoja ina kiti kimoja',
  'field.mustBeAtLeast': 'Sehemu ya {field} lazima iwe angalau {n}',
  'field.mustBeAtMost': 'Sehemu ya {field} isizidi {n}',
  'field.mustBeNumber': 'Sehemu ya {field} lazima iwe nambari',
  'field.mustBePositive': 'Sehemu ya {field} lazima iwe nambari chanya',
  'field.mustBeText': 'Sehemu ya {field} lazima iwe maandishi',
  'field.mustBeWhole': 'Sehemu ya {field} lazima iwe nambari kamili',
  'field.nameCharacters':
    'Sehemu ya {what} haiwezi kuwa na herufi zisizoonekana au za udhibiti (kama nafasi isiyo na upana, alama ya mwelekeo, tab au mstari mpya)',
  'field.needsProposer': 'Bila kujiteua, uteuzi unahitaji angalau mpendekezaji mmoja',
  'field.newPin': 'Weka PIN mpya',
  'field.nominationObject': 'Uteuzi lazima uwe kitu au null',
  'field.nominationsCloseAfterOpen': 'Uteuzi lazima ufungwe baada ya kufunguliwa',
  'field.nominationsObject': 'Uteuzi lazima uwe kitu au null',
  'field.notEmpty': 'Sehemu ya {field} haiwezi kuwa tupu',
  'field.objectionNamesMember': 'Pingamizi linataja mwanachama linalompinga',
  'field.oneOf': 'Sehemu ya {field} lazima iwe {options}',
  'field.oneOfList': 'Sehemu ya {field} lazima iwe mojawapo ya {options}',
  'field.onlyMotionQuorum': 'Hoja pekee ndiyo ina akidi',
  'field.onlyMotionThreshold': 'Hoja pekee ndiyo ina kiwango cha kupita',
  'field.phoneFormat': 'Weka nambari ya simu ya mkononi kama 0712 345 678 au +254 712 345 678',
  'field.pinFormat': 'PIN lazima iwe tarakimu 4 hadi 8',
  'field.pinTrivial': 'Chagua PIN ngumu kukisia: isiwe tarakimu moja inayojirudia wala mfuatano kama 1234',
  'field.positionIdsList': 'position_ids lazima iwe orodha ya vitambulisho vya nafasi',
  'field.positionKey': 'Kila ufunguo lazima uwe kitambulisho cha nafasi',
  'field.positionTwice': 'Nafasi {id} imeorodheshwa zaidi ya mara moja',
  'field.quorumMax': 'Akidi isizidi asilimia 100',
  'field.quorumMin': 'Akidi lazima iwe angalau asilimia 1',
  'field.quorumWhole': 'Akidi lazima iwe asilimia kamili',
  'field.reasonWhenInvalid': 'Sababu inahitajika uteuzi unapokuwa batili',
  'field.registerClosesAfterOpens': 'Daftari lazima lifungwe baada ya kufunguliwa',
  'field.registerClosesBeforeVoting': 'Daftari lazima lifungwe kabla ya upigaji kura kufunguliwa',
  'field.required': 'Sehemu hii inahitajika',
  'field.rotateRankedOnly': 'Wagombea wa nafasi ya kupanga kwa mpangilio pekee ndio wanaweza kuzungushwa',
  'field.ruleValue': "Thamani lazima iwe nambari, maandishi, true au false, orodha ya maandishi, '{'years_before'}' au '{'days_before'}'",
  'field.ruleValueDate': "Thamani lazima iwe tarehe (YYYY-MM-DD), '{'years_before: n'}' au '{'days_before: n'}'",
  'field.ruleValueList': 'Thamani lazima iwe orodha ya maandishi',
  'field.rulesList': 'Masharti lazima yawe orodha ya masharti',
  'field.subjectMemberNo': 'subject_member_no lazima iwe nambari ya uanachama',
  'field.supportEmail': 'Barua pepe ya msaada lazima iwe anwani ya barua pepe',
  'field.supportEmailValid': 'Barua pepe ya msaada lazima iwe anwani sahihi ya barua pepe',
  'field.supportersList': "Waungaji mkono lazima wawe orodha ya '{'member_no, role'}'",
  'field.timeZone': 'Saa za eneo lazima ziwe jina la IANA, k.m. Africa/Nairobi au Europe/London',
  'field.tooLarge': 'Sehemu ya {field} ni kubwa mno',
  'field.translationMustBeText': 'Tafsiri ya {field} lazima iwe maandishi',
  'field.translationObject': 'Tafsiri lazima iwe kitu cha sehemu kwa maandishi',
  'field.translationsObject': 'Tafsiri lazima ziwe kitu cha lugha kwa sehemu',
  'field.trueOrFalse': 'Sehemu ya {field} lazima iwe true au false',
  'field.websiteScheme': 'Tovuti lazima ianze na http:// au https://',
  'field.websiteUrl': 'Tovuti lazima iwe URL',
  'field.websiteUrlExample': 'Tovuti lazima iwe URL, k.m. https://example.org',
};

/** Every contract message in every shipped language (the web app and the server merge these into their catalogues). */
export const CONTRACT_MESSAGES: { en: Record<ContractMessageId, string>; sw: Record<ContractMessageId, string> } = { en, sw };

/** Field names said in a language where a message names its field (`{field}`, `{what}`); others stay as written (they are the API's keys). */
export const FIELD_NAMES: { sw: Readonly<Record<string, string>> } = {
  sw: {
    password: 'nenosiri',
    name: 'jina',
    details: 'maelezo',
    status: 'hali',
    statement: 'taarifa',
    seats: 'viti',
    reason: 'sababu',
    county: 'kaunti',
    value: 'thamani',
    token: 'tokeni',
    role: 'jukumu',
    phone: 'simu',
    pfNumber: 'nambari ya uanachama',
    'member number': 'nambari ya uanachama',
    message: 'ujumbe',
    label: 'lebo',
    grounds: 'sababu',
    email: 'barua pepe',
    language: 'lugha',
    kind: 'aina',
    key: 'ufunguo',
    type: 'aina',
    title: 'kichwa',
    'time zone': 'saa za eneo',
    threshold: 'kiwango cha kupita',
    supporters: 'waungaji mkono',
    signature: 'sahihi',
    'results visibility': 'uonekanaji wa matokeo',
    'receipt code': 'msimbo wa risiti',
    quorum: 'akidi',
    'public key': 'ufunguo wa umma',
    method: 'mbinu',
    description: 'maelezo',
    decision: 'uamuzi',
    channel: 'njia',
    attribute: 'sifa',
    organisation: 'chama',
    'user type': 'aina ya mtumiaji',
  },
};

/**
 * A contract message's values as a language says them, for the server's and the web's formatters
 * alike: a list of options as "a, b or c" in the language's words (British English: no comma
 * before "or"), a field's name (`field`, `what`) in the language where `FIELD_NAMES` knows it.
 */
export function valuesIn(language: string, values: ContractValues): Record<string, string | number> {
  const names = (FIELD_NAMES as Partial<Record<string, Readonly<Record<string, string>>>>)[language];
  return Object.fromEntries(
    Object.entries(values).map(([k, v]): [string, string | number] => {
      if (Array.isArray(v)) return [k, new Intl.ListFormat(language === 'en' ? 'en-GB' : language, { type: 'disjunction' }).format(v)];
      if ((k === 'field' || k === 'what') && typeof v === 'string') return [k, names?.[v] ?? v];
      return [k, v as string | number];
    }),
  );
}

/** The mark a said message starts with, and the one before its values. Neither is text anyone types. */
const MARK = '\u241e';
const VALUES = '\u241f';

/** A message by code, as a schema carries it: `said('field.maxLength', { n: 150 })`. */
export function said(id: ContractMessageId, values?: ContractValues): string {
  return values ? `${MARK}${id}${VALUES}${JSON.stringify(values)}` : `${MARK}${id}`;
}

/** The code and values of a said message; undefined for any other text (zod's own, say). */
export function readSaid(message: string): { id: ContractMessageId; values: ContractValues } | undefined {
  if (!message.startsWith(MARK)) return undefined;
  const cut = message.indexOf(VALUES);
  const id = (cut === -1 ? message.slice(1) : message.slice(1, cut)) as ContractMessageId;
  if (!Object.hasOwn(en, id)) return undefined;
  if (cut === -1) return { id, values: {} };
  try {
    const values: unknown = JSON.parse(message.slice(cut + 1));
    return typeof values === 'object' && values !== null && !Array.isArray(values) ? { id, values: values as ContractValues } : undefined;
  } catch {
    return undefined;
  }
}

/** "a, b or c": a list as the English catalogue says it (no comma before "or"). */
const orList = (items: readonly string[]) => (items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`);

/**
 * A said message in English, with no formatter: the templates hold only simple placeholders and
 * quoted braces. Any other text is returned as it is. For the contract's own tests and the places
 * that need the wire's English (a CSV import's line report); a reader's language goes through the
 * server's or the web's catalogue.
 */
export function inEnglish(message: string): string {
  const found = readSaid(message);
  if (!found) return message;
  return en[found.id].replace(/'([{}])'|\{(\w+)\}/g, (_, brace: string | undefined, name: string | undefined) => {
    if (brace) return brace;
    const value = found.values[name!];
    return value === undefined ? `{${name}}` : Array.isArray(value) ? orList(value) : String(value);
  });
}
