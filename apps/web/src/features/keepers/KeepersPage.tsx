import type { Keeper, KeeperRequest } from '@vers/domain';
import AddBusinessIcon from '@mui/icons-material/AddBusiness';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import i18next from 'i18next';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure } from '../../app/api.ts';
import { ConfirmDialog } from '../../app/components/ConfirmDialog.tsx';
import { DataTablePagination } from '../../app/components/DataTablePagination.tsx';
import { stackedRowsBelowMd } from '../../app/components/stacked-rows.ts';
import { usePaging } from '../../app/components/table-paging.ts';
import { notifications } from '../../app/notifications.ts';
import { endsSession } from '../users/users-api.ts';
import { KeeperDialog } from './KeeperDialog.tsx';
import { createKeeper, deleteKeeper, fetchKeepers, keeperFailure, updateKeeper } from './keepers-api.ts';
import LoadFailure from '../../app/components/LoadFailure.tsx';

type OpenDialog = { kind: 'new' } | { kind: 'edit'; keeper: Keeper } | { kind: 'delete'; keeper: Keeper };

const byName = (a: Keeper, b: Keeper) => a.name.localeCompare(b.name);

/** The keeper's name stays in view while a tablet's table scrolls sideways; a phone shows each keeper as a card. */
const stickyCell = {
  position: { md: 'sticky' },
  left: 0,
  zIndex: 1,
  bgcolor: 'background.paper',
  borderRight: { md: 1 },
  borderRightColor: 'divider',
} as const;

/**
 * Keepers page (issue 22, system admins): the companies whose holder users read their wagons' orders, with their
 * Vehicle Keeper Markings and how many users belong to each; add, edit and delete as the users page does.
 */
export default function KeepersPage() {
  const { t } = useTranslation();
  const [keepers, setKeepers] = useState<Keeper[] | null>(null);
  const [loadFailed, setLoadFailed] = useState<'failed' | 'forbidden' | false>(false);
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const [deleting, setDeleting] = useState(false);
  /** Kept after the confirmation closes, so that its text stays while it fades out. */
  const [toDelete, setToDelete] = useState<Keeper | null>(null);

  /** Reports a failed action in the user's language, naming the keeper. */
  const report = useCallback((messageKey: string, error: unknown, name?: string) => {
    if (endsSession(error)) return;
    const reason = keeperFailure(error);
    notifications.show(messageKey, 'error', {
      ...(name ? { name } : {}),
      reason: i18next.t(reason.key, reason.values),
    });
  }, []);

  const load = useCallback(async () => {
    setLoadFailed(false);
    setKeepers(null);
    try {
      setKeepers((await fetchKeepers()).sort(byName));
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 403) setLoadFailed('forbidden');
      else {
        setLoadFailed('failed');
        report('keepers.loadError', error);
      }
    }
  }, [report]);

  useEffect(() => {
    void load();
  }, [load]);

  const replace = (keeper: Keeper) =>
    setKeepers((current) => [...(current ?? []).filter((k) => k.id !== keeper.id), keeper].sort(byName));

  const save = async (request: KeeperRequest, keeper: Keeper | null): Promise<boolean> => {
    try {
      const saved = keeper ? await updateKeeper(keeper.id, request) : await createKeeper(request);
      replace(saved);
      notifications.show(keeper ? 'keepers.updated' : 'keepers.created', 'success', { name: saved.name });
      setDialog(null);
      return true;
    } catch (error) {
      report(keeper ? 'keepers.updateError' : 'keepers.createError', error, request.name);
      return false;
    }
  };

  const remove = async (keeper: Keeper) => {
    setDeleting(true);
    try {
      await deleteKeeper(keeper.id);
      setKeepers((current) => (current ?? []).filter((k) => k.id !== keeper.id));
      notifications.show('keepers.deleted', 'success', { name: keeper.name });
      setDialog(null);
    } catch (error) {
      // Asking again would not help (users still belong to it, or it is gone): the message says why, the question goes.
      report('keepers.deleteError', error, keeper.name);
      setDialog(null);
    } finally {
      setDeleting(false);
    }
  };

  const { visible: shown, pagination } = usePaging(keepers ?? []);

  return (
    <Stack spacing={2} sx={{ maxWidth: 1200 }}>
      <Stack
        direction="row"
        useFlexGap
        spacing={2}
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}
      >
        <Typography color="text.secondary" sx={{ flex: '1 1 300px' }}>
          {t('keepers.intro')}
        </Typography>
        <Button
          variant="contained"
          startIcon={<AddBusinessIcon />}
          onClick={() => setDialog({ kind: 'new' })}
          disabled={keepers === null}
          sx={{ minHeight: 48 }}
          data-testid="keeper-new"
        >
          {t('keepers.new')}
        </Button>
      </Stack>

      <LoadFailure kind={loadFailed} testId="keepers" message={t('keepers.loadFailed')} onRetry={() => void load()} />

      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        {keepers === null && !loadFailed && <LinearProgress aria-label={t('app.loading')} />}
        <TableContainer>
          <Table
            data-testid="keepers-table"
            sx={[{ minWidth: { md: 720 } }, stackedRowsBelowMd]}
            aria-label={t('routes.keepers')}
          >
            <TableHead>
              <TableRow>
                <TableCell sx={stickyCell}>{t('keepers.name')}</TableCell>
                <TableCell>{t('keepers.markings')}</TableCell>
                <TableCell align="right">{t('keepers.users')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {keepers !== null && keepers.length === 0 && (
                <TableRow>
                  <TableCell colSpan={4}>
                    <Typography color="text.secondary" sx={{ py: 2 }} data-testid="keepers-empty">
                      {t('keepers.empty')}
                    </Typography>
                  </TableCell>
                </TableRow>
              )}
              {shown.map((keeper) => (
                <TableRow key={keeper.id} hover data-testid={`keeper-row-${keeper.id}`} data-name={keeper.name}>
                  <TableCell sx={{ ...stickyCell, fontWeight: 600 }} data-label={t('keepers.name')}>
                    {keeper.name}
                  </TableCell>
                  <TableCell data-label={t('keepers.markings')}>
                    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                      {keeper.markings.map((vkm) => (
                        <Chip key={vkm} label={vkm} size="small" sx={{ fontFamily: 'monospace' }} />
                      ))}
                    </Box>
                  </TableCell>
                  <TableCell align="right" data-label={t('keepers.users')} data-testid="keeper-users">
                    {keeper.users}
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap', py: 0.5 }}>
                    <Tooltip title={t('common.edit')}>
                      <IconButton
                        size="large"
                        onClick={() => setDialog({ kind: 'edit', keeper })}
                        aria-label={t('common.edit')}
                        data-testid={`keeper-edit-${keeper.id}`}
                      >
                        <EditIcon />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('common.delete')}>
                      <IconButton
                        size="large"
                        color="error"
                        onClick={() => {
                          setToDelete(keeper);
                          setDialog({ kind: 'delete', keeper });
                        }}
                        aria-label={t('common.delete')}
                        data-testid={`keeper-delete-${keeper.id}`}
                      >
                        <DeleteIcon />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        {keepers !== null && <DataTablePagination {...pagination} selectTestId="keepers-rows-per-page" />}
      </Paper>

      {(dialog?.kind === 'new' || dialog?.kind === 'edit') && (
        <KeeperDialog
          keeper={dialog.kind === 'edit' ? dialog.keeper : null}
          onCancel={() => setDialog(null)}
          onSubmit={(request) => save(request, dialog.kind === 'edit' ? dialog.keeper : null)}
        />
      )}
      <ConfirmDialog
        open={dialog?.kind === 'delete'}
        title={t('keepers.deleteTitle')}
        message={
          toDelete
            ? toDelete.users > 0
              ? t('keepers.deleteQuestionUsers', { name: toDelete.name, count: toDelete.users })
              : t('keepers.deleteQuestion', { name: toDelete.name })
            : ''
        }
        confirmLabel={t('common.delete')}
        danger
        busy={deleting}
        onConfirm={() => {
          if (dialog?.kind === 'delete') void remove(dialog.keeper);
        }}
        onCancel={() => !deleting && setDialog(null)}
      />
    </Stack>
  );
}
