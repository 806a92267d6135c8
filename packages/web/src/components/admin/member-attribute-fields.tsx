import { parseAttributeValue, type AttributeDef, type AttributeType, type AttributeValue, type Attributes } from '@kura/contract';
import { FormField, selectClass } from '@/components/forms';
import { Input } from '@/components/ui/input';
import { useT, type MessageKey } from '@/i18n';

/** What a value of each type looks like, in the message under a field that does not parse. */
const FORMAT: Record<Exclude<AttributeType, 'boolean'>, MessageKey> = {
  number: 'memberAttributes.format.number',
  date: 'memberAttributes.format.date',
  text: 'memberAttributes.format.text',
};

/** A stored value as its field holds it: '' for none, 'true'/'false' for a boolean, a number's digits. */
export function attributeInput(value: AttributeValue | undefined): string {
  if (value === null || value === undefined) return '';
  return String(value);
}

/**
 * The attributes an edit sends (docs/api.md "The register": a subset, null clears one): the keys
 * whose field differs from the stored value, parsed as their type; and the fields that do not parse.
 */
export function changedAttributes(
  defs: readonly AttributeDef[],
  stored: Attributes | undefined,
  fields: Record<string, string>,
): { attributes: Attributes; invalid: Record<string, AttributeType> } {
  const attributes: Attributes = {};
  const invalid: Record<string, AttributeType> = {};
  for (const def of defs) {
    const raw = fields[def.key];
    if (raw === undefined) continue;
    const parsed = parseAttributeValue(def.type, raw);
    if (parsed === undefined) {
      invalid[def.key] = def.type;
      continue;
    }
    if (parsed !== (stored?.[def.key] ?? null)) attributes[def.key] = parsed;
  }
  return { attributes, invalid };
}

/** The message under a field that does not parse as its type. */
export function invalidAttributeMessage(type: AttributeType, t: ReturnType<typeof useT>['t']): string {
  return type === 'boolean'
    ? t('memberAttributes.invalid', { format: t('attributes.type.boolean') })
    : t('memberAttributes.invalid', { format: t(FORMAT[type]) });
}

/**
 * A member's attribute values in the member edit dialog, one field per organisation attribute:
 * a number box, a date picker, a text box, or Yes / No / No value.
 */
export function MemberAttributeFields({
  id,
  defs,
  values,
  errors,
  onChange,
}: {
  id: string;
  defs: readonly AttributeDef[];
  /** the fields' values by key (attributeInput of the stored ones, as edited) */
  values: Record<string, string>;
  errors: Partial<Record<string, string>>;
  onChange: (key: string, value: string) => void;
}) {
  const { t } = useT();
  if (defs.length === 0) return null;
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-1 text-sm font-medium">{t('memberAttributes.legend')}</legend>
      {defs.map((def) => (
        <FormField key={def.key} id={`${id}-attr-${def.key}`} label={def.label} error={errors[def.key]} className="gap-1">
          {def.type === 'boolean' ? (
            <select className={selectClass} value={values[def.key] ?? ''} onChange={(e) => onChange(def.key, e.target.value)}>
              <option value="">{t('memberAttributes.none')}</option>
              <option value="true">{t('memberAttributes.yes')}</option>
              <option value="false">{t('memberAttributes.no')}</option>
            </select>
          ) : (
            <Input
              type={def.type === 'number' ? 'number' : def.type === 'date' ? 'date' : 'text'}
              step={def.type === 'number' ? 'any' : undefined}
              maxLength={def.type === 'text' ? 200 : undefined}
              autoComplete="off"
              value={values[def.key] ?? ''}
              onChange={(e) => onChange(def.key, e.target.value)}
            />
          )}
        </FormField>
      ))}
    </fieldset>
  );
}
