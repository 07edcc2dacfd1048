import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';

/** Why a list could not be read: the user's roles do not reach it, or the call failed and may be tried again. */
export type LoadFailureKind = 'forbidden' | 'failed';

/**
 * The message of a list page whose data could not be read: the rights message for a 403 (trying again cannot help),
 * else the page's own "could not be loaded" with a retry. `testId` names both: `<testId>-forbidden`,
 * `<testId>-load-error`.
 */
export default function LoadFailure(props: {
  kind: LoadFailureKind | false | null;
  testId: string;
  message: string;
  retryLabel?: string;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  if (props.kind === 'forbidden') {
    return (
      <Alert severity="error" data-testid={`${props.testId}-forbidden`}>
        {t('errors.forbidden')}
      </Alert>
    );
  }
  if (props.kind !== 'failed') return null;
  return (
    <Alert
      severity="error"
      data-testid={`${props.testId}-load-error`}
      action={
        <Button color="inherit" onClick={props.onRetry} sx={{ minHeight: 48 }}>
          {props.retryLabel ?? t('common.retry')}
        </Button>
      }
    >
      {props.message}
    </Alert>
  );
}
