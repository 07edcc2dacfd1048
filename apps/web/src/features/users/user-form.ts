import { PASSWORD_MIN_LENGTH, ROLES, USERNAME_MIN_LENGTH, isValidUsername, passwordProblems } from '@vers/domain';

export interface UserForm {
  username: string;
  firstName: string;
  lastName: string;
  roles: string[];
  enabled: boolean;
  /** The keeper a holder belongs to (issue 22); null for every other user. */
  keeperId: number | null;
}

/** A holder reads their keeper's wagons: the user dialog asks for the keeper when the role is chosen. */
export const needsKeeper = (form: Pick<UserForm, 'roles'>) => form.roles.includes(ROLES.HOLDER);

/**
 * A field's problem as a catalogue key with its values ("minimum length {0}" in
 * docs/requirements/administration.md#admin-validation).
 */
export interface FieldError {
  key: string;
  values?: Record<string, number>;
}

/**
 * A holder has the holder role alone (the server refuses others beside it): choosing it replaces the roles chosen,
 * and choosing another role replaces it. `before` and `after` are the roles before and after one change of the select.
 */
export function exclusiveHolder(before: readonly string[], after: string[]): string[] {
  const added = after.filter((role) => !before.includes(role));
  if (added.includes(ROLES.HOLDER)) return [ROLES.HOLDER];
  if (added.length > 0) return after.filter((role) => role !== ROLES.HOLDER);
  return after;
}

export type UserFormErrors = Partial<Record<'username' | 'firstName' | 'lastName' | 'roles' | 'keeper', FieldError>>;

const required: FieldError = { key: 'users.validation.required' };

/**
 * The rules in docs/requirements/administration.md#admin-validation: username (new users only) ≥ 3 characters, both
 * names, at least one role; a holder's keeper (issue 22).
 */
export function userFormErrors(form: UserForm, isNew: boolean): UserFormErrors {
  const errors: UserFormErrors = {};
  if (isNew) {
    if (form.username.trim() === '') errors.username = required;
    else if (!isValidUsername(form.username))
      errors.username = { key: 'users.validation.minLength', values: { min: USERNAME_MIN_LENGTH } };
  }
  if (form.firstName.trim() === '') errors.firstName = required;
  if (form.lastName.trim() === '') errors.lastName = required;
  if (form.roles.length === 0) errors.roles = { key: 'users.validation.roles' };
  if (needsKeeper(form) && form.keeperId === null) errors.keeper = { key: 'users.validation.keeper' };
  return errors;
}

export type PasswordRule = 'minLength' | 'lowercase' | 'uppercase' | 'digit' | 'repeat';
export const PASSWORD_RULES: readonly PasswordRule[] = ['minLength', 'lowercase', 'uppercase', 'digit', 'repeat'];
export const PASSWORD_RULE_VALUES = { min: PASSWORD_MIN_LENGTH };

/** Which password rules a pair of entries meets; the password is valid when every rule is met. */
export function passwordRuleState(password: string, repeat: string): Record<PasswordRule, boolean> {
  const problems = new Set<string>(passwordProblems(password));
  const empty = problems.has('required');
  return {
    minLength: !empty && !problems.has('minLength'),
    lowercase: !empty && !problems.has('lowercase'),
    uppercase: !empty && !problems.has('uppercase'),
    digit: !empty && !problems.has('digit'),
    repeat: !empty && password === repeat,
  };
}
