import type { DefaultOption, Language } from '@vers/domain';
import AddIcon from '@mui/icons-material/Add';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrash';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import { stackedRowsBelowMd } from '../../app/components/stacked-rows.ts';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { ConfirmDialog } from '../../app/components/ConfirmDialog.tsx';
import { DataTablePagination } from '../../app/components/DataTablePagination.tsx';
import { usePaging } from '../../app/components/table-paging.ts';
import { ApiFailure } from '../../app/api.ts';
import { notifications } from '../../app/notifications.ts';
import { refreshValueLists } from '../../offline/value-lists.ts';
import { versdb } from '../../offline/versdb.ts';
import { addValue, deleteValue, fetchList, updateValue } from './default-options-api.ts';
import { type EditedValue, ValueDialog } from './ValueDialog.tsx';
import { type ValueRow, keepsAValue, pendingChanges, rowsFrom, toggleDelete, upsertRow } from './value-rows.ts';

let newRowCounter = 0;

export default function DefaultOptionPage() {
  const { t, i18n } = useTranslation();
  const { optionId } = useParams();
  const id = Number(optionId);
  const [list, setList] = useState<DefaultOption | null>(null);
  const [rows, setRows] = useState<ValueRow[]>([]);
  const [editing, setEditing] = useState<EditedValue | null>(null);
  const [confirmRemoveNew, setConfirmRemoveNew] = useState<ValueRow | null>(null);
  const [saving, setSaving] = useState(false);

  const load = useCallback(async () => {
    const answer = await fetchList(id);
    setList(answer);
    setRows(rowsFrom(answer.values, answer.lang));
  }, [id]);

  /** Why the list is not shown: it does not exist (404), or the load failed and may be tried again. */
  const [problem, setProblem] = useState<'missing' | 'failed' | null>(null);
  const firstLoad = useCallback(() => {
    setProblem(null);
    load().catch((error: unknown) =>
      setProblem(error instanceof ApiFailure && error.status === 404 ? 'missing' : 'failed'),
    );
  }, [load]);

  useEffect(() => {
    firstLoad();
  }, [firstLoad]);

  const { visible, pagination } = usePaging(rows);
  const pending = pendingChanges(rows);
  const dirty = pending.add.length + pending.update.length + pending.remove.length > 0;

  const save = async () => {
    if (!list) return;
    if (!keepsAValue(rows)) {
      notifications.show('defaultOptions.saveError', 'error');
      return;
    }
    setSaving(true);
    // Adds first, deletions last, so that the list never drops to no value on the server.
    const results: PromiseSettledResult<unknown>[] = await Promise.allSettled([
      ...pending.add.map((row) => addValue(list.id, row)),
      ...pending.update.map((row) => updateValue(list.id, row.id as number, row)),
    ]);
    for (const row of pending.remove) {
      results.push(...(await Promise.allSettled([deleteValue(list.id, row.id as number)])));
    }
    const failed = results.filter((r) => r.status === 'rejected').length;
    notifications.show(failed ? 'defaultOptions.saveError' : 'common.saved', failed ? 'error' : 'success');
    await load().catch(() => undefined);
    // The browser's own copy follows at once, quietly: "Value lists were updated" would replace the save's own message
    // with news the admin just made.
    void refreshValueLists(versdb, (i18n.resolvedLanguage ?? 'de') as Language, 'changes', { announce: false });
    setSaving(false);
  };

  const requestDelete = (row: ValueRow) => {
    if (row.id === null) setConfirmRemoveNew(row);
    else setRows(toggleDelete(rows, row.rowKey));
  };

  if (!list) {
    if (problem === 'missing') {
      return (
        <Alert severity="error" data-testid="default-option-missing">
          {t('defaultOptions.missing')}
        </Alert>
      );
    }
    if (problem === 'failed') {
      return (
        <Alert
          severity="error"
          data-testid="default-option-load-error"
          action={
            <Button color="inherit" onClick={firstLoad}>
              {t('defaultOptions.retry')}
            </Button>
          }
        >
          {t('defaultOptions.listLoadFailed')}
        </Alert>
      );
    }
    return null;
  }
  return (
    <Paper sx={{ p: { xs: 1, sm: 2 } }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 2 }}>
        <IconButton component={RouterLink} to="/defaultoptions" aria-label={t('defaultOptions.back')}>
          <ArrowBackIcon />
        </IconButton>
        <Box sx={{ flexGrow: 1 }}>
          <Typography variant="h6" component="h2" data-testid="default-option-title">
            {list.text}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {list.key}
          </Typography>
        </Box>
        <Button
          startIcon={<AddIcon />}
          onClick={() => setEditing({ rowKey: `n${++newRowCounter}`, id: null, value: '', text: '', global: false })}
          data-testid="value-add"
        >
          {t('defaultOptions.addValue')}
        </Button>
        <Button variant="contained" disabled={!dirty || saving} onClick={() => void save()} data-testid="values-save">
          {t('common.save')}
        </Button>
      </Box>
      {!keepsAValue(rows) && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('defaultOptions.needsValue')}
        </Alert>
      )}
      <TableContainer>
        <Table data-testid="values-table" sx={stackedRowsBelowMd}>
          <TableHead>
            <TableRow>
              <TableCell>{t('defaultOptions.valueKey')}</TableCell>
              <TableCell>{t('defaultOptions.valueText')}</TableCell>
              <TableCell align="right">{t('defaultOptions.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {visible.map((row) => (
              <TableRow
                key={row.rowKey}
                data-testid={`value-row-${row.value}`}
                sx={{
                  ...(row.delete && { '& td': { textDecoration: 'line-through', color: 'text.disabled' } }),
                  ...((row.modified || row.id === null) && { bgcolor: 'action.hover' }),
                }}
              >
                <TableCell data-label={t('defaultOptions.valueKey')}>{row.value}</TableCell>
                <TableCell data-label={t('defaultOptions.valueText')}>{row.text}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <IconButton
                    aria-label={t('common.edit')}
                    disabled={row.delete}
                    onClick={() => setEditing(row)}
                    data-testid={`value-edit-${row.value}`}
                  >
                    <EditIcon />
                  </IconButton>
                  <IconButton
                    aria-label={row.delete ? t('defaultOptions.undoDelete') : t('common.delete')}
                    onClick={() => requestDelete(row)}
                    data-testid={`value-delete-${row.value}`}
                  >
                    {row.delete ? <RestoreFromTrashIcon /> : <DeleteIcon />}
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <DataTablePagination {...pagination} data-testid="values-pagination" />
      {editing && (
        <ValueDialog
          initial={editing}
          onCancel={() => setEditing(null)}
          onSave={(value) => {
            setRows(upsertRow(rows, value));
            setEditing(null);
          }}
        />
      )}
      <ConfirmDialog
        open={confirmRemoveNew !== null}
        title={t('common.delete')}
        message={t('defaultOptions.removeNewConfirm', { value: confirmRemoveNew?.value ?? '' })}
        danger
        onCancel={() => setConfirmRemoveNew(null)}
        onConfirm={() => {
          if (confirmRemoveNew) setRows(toggleDelete(rows, confirmRemoveNew.rowKey));
          setConfirmRemoveNew(null);
        }}
      />
    </Paper>
  );
}
