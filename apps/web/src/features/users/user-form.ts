import { PASSWORD_MIN_LENGTH, USERNAME_MIN_LENGTH, isValidUsername, passwordProblems } from '@vers/domain';

export interface UserForm {
  username: string;
  firstName: string;
  lastName: string;
  roles: string[];
  enabled: boolean;
}

/**
 * A field's problem as a catalogue key with its values ("minimum length {0}" in
 * docs/requirements/administration.md#admin-validation).
 */
export interface FieldError {
  key: string;
  values?: Record<string, number>;
}

export type UserFormErrors = Partial<Record<'username' | 'firstName' | 'lastName' | 'roles', FieldError>>;

const required: FieldError = { key: 'users.validation.required' };

/**
 * The rules in docs/requirements/administration.md#admin-validation: username (new users only) ≥ 3 characters, both
 * names, at least one role.
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
