import { type Keeper, type User, type WorkshopSummary, isSystemAdmin } from '@vers/domain';
import BlockIcon from '@mui/icons-material/Block';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import KeyIcon from '@mui/icons-material/Key';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
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
import { stackedRowsBelowMd } from '../../app/components/stacked-rows.ts';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import i18next from 'i18next';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DataTablePagination } from '../../app/components/DataTablePagination.tsx';
import { usePaging } from '../../app/components/table-paging.ts';
import { ConfirmDialog } from '../../app/components/ConfirmDialog.tsx';
import { ApiFailure } from '../../app/api.ts';
import { notifications } from '../../app/notifications.ts';
import { useSession } from '../../app/session.ts';
import { InitialPasswordDialog } from './InitialPasswordDialog.tsx';
import { PasswordDialog } from './PasswordDialog.tsx';
import { UserDialog } from './UserDialog.tsx';
import { WorkshopPicker, pickedWorkshop } from './WorkshopPicker.tsx';
import { type UserForm, needsKeeper } from './user-form.ts';
import { fetchKeepers } from '../keepers/keepers-api.ts';
import {
  createUser,
  deleteUser,
  endsSession,
  failureReasonKey,
  fetchRoles,
  fetchUsers,
  fetchWorkshops,
  setPassword,
  updateUser,
} from './users-api.ts';
import LoadFailure from '../../app/components/LoadFailure.tsx';

type OpenDialog =
  | { kind: 'new' }
  | { kind: 'edit'; user: User }
  | { kind: 'password'; user: User }
  | { kind: 'delete'; user: User }
  | { kind: 'initial'; username: string; password: string };

/** "All" in the rows-per-page choice (docs/requirements/administration.md#data-tables: data tables offer All). */

const byUsername = (a: User, b: User) => a.username.localeCompare(b.username);

/** The first column stays in view while a narrow screen scrolls the table sideways. */
/** The user name stays in view while a tablet's table scrolls sideways; a phone shows each user as a card instead. */
const stickyCell = {
  position: { md: 'sticky' },
  left: 0,
  zIndex: 1,
  bgcolor: 'background.paper',
  borderRight: { md: 1 },
  borderRightColor: 'divider',
} as const;

export default function UsersPage() {
  const { t } = useTranslation();
  const session = useSession();
  /** A system admin picks the workshop (issue 20); a workshop admin manages their own workshop only. */
  const systemAdmin = isSystemAdmin(session?.roles ?? []);
  const [params, setParams] = useSearchParams();
  const picked = systemAdmin ? pickedWorkshop(params) : null;
  const [workshops, setWorkshops] = useState<WorkshopSummary[] | null>(null);
  const [workshopsFailed, setWorkshopsFailed] = useState(false);
  const [users, setUsers] = useState<User[] | null>(null);
  /** The users could not be read ('failed': a retry may help) or the server refused them ('forbidden': no rights). */
  const [loadFailed, setLoadFailed] = useState<'failed' | 'forbidden' | false>(false);
  const [roles, setRoles] = useState<string[]>([]);
  /** The keepers a holder may belong to (system admins only); null while loading or when they could not be read. */
  const [keepers, setKeepers] = useState<Keeper[] | null>(null);
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const [deleting, setDeleting] = useState(false);
  /** Kept after the confirmation closes, so that its text stays while it fades out. */
  const [toDelete, setToDelete] = useState<User | null>(null);

  /**
   * Reports a failed action in the user's language, naming the user
   * (docs/requirements/administration.md#error-catalogue).
   */
  const report = useCallback((messageKey: string, error: unknown, username?: string) => {
    if (endsSession(error)) return;
    notifications.show(messageKey, 'error', {
      ...(username ? { username } : {}),
      reason: i18next.t(failureReasonKey(error)),
    });
  }, []);

  /** The latest load: an answer for a workshop picked before is dropped. */
  const loads = useRef(0);
  const load = useCallback(async () => {
    const mine = ++loads.current;
    setLoadFailed(false);
    setUsers(null);
    const [usersResult, rolesResult] = await Promise.allSettled([
      fetchUsers(systemAdmin ? picked : undefined),
      fetchRoles(),
    ]);
    if (mine !== loads.current) return;
    if (usersResult.status === 'fulfilled') setUsers(usersResult.value);
    else if (usersResult.reason instanceof ApiFailure && usersResult.reason.status === 403) setLoadFailed('forbidden');
    else {
      setLoadFailed('failed');
      report('users.loadError', usersResult.reason);
    }
    if (rolesResult.status === 'fulfilled') setRoles(rolesResult.value);
    else if (usersResult.status === 'fulfilled') report('users.rolesError', rolesResult.reason);
  }, [report, systemAdmin, picked]);

  useEffect(() => {
    void load();
  }, [load]);

  const loadWorkshops = useCallback(async () => {
    setWorkshopsFailed(false);
    try {
      setWorkshops(await fetchWorkshops());
    } catch (error) {
      setWorkshopsFailed(true);
      report('users.workshopsError', error);
    }
  }, [report]);

  useEffect(() => {
    if (systemAdmin) void loadWorkshops();
  }, [systemAdmin, loadWorkshops]);

  const loadKeepers = useCallback(async () => {
    try {
      setKeepers(await fetchKeepers());
    } catch (error) {
      report('users.keepersError', error);
    }
  }, [report]);

  // Asked for with the page (the holders' rows name their keeper) and again when a dialog opens, so that a keeper
  // added on the keepers page a moment ago is there.
  const dialogOpen = dialog?.kind === 'new' || dialog?.kind === 'edit';
  useEffect(() => {
    if (systemAdmin) void loadKeepers();
  }, [systemAdmin, dialogOpen, loadKeepers]);
  const keeperName = (id: number | null) => (id === null ? undefined : keepers?.find((k) => k.id === id)?.name);

  /** The picked workshop goes into the address, so that a reload or a way back keeps it. */
  const pick = (workshopId: number | null) =>
    setParams(workshopId === null ? {} : { workshop: String(workshopId) }, { replace: true });
  const pickedName = workshops?.find((w) => w.id === picked)?.name;

  const replace = (user: User) =>
    setUsers((current) => [...(current ?? []).filter((u) => u.id !== user.id), user].sort(byUsername));

  const create = async (form: UserForm): Promise<unknown> => {
    try {
      const created = await createUser({
        username: form.username,
        firstName: form.firstName,
        lastName: form.lastName,
        roles: form.roles.map((name) => ({ name })),
        // A system admin's new user joins the picked workshop, or none; a holder belongs to a keeper, not a workshop.
        ...(systemAdmin ? { workshopId: needsKeeper(form) ? null : picked } : {}),
        ...(needsKeeper(form) ? { keeperId: form.keeperId } : {}),
      });
      replace(created.user);
      notifications.show('users.created', 'success', { username: created.user.username });
      setDialog({ kind: 'initial', username: created.user.username, password: created.password });
      return null;
    } catch (error) {
      report('users.createError', error, form.username);
      return error;
    }
  };

  const update = async (user: User, form: UserForm): Promise<unknown> => {
    try {
      const updated = await updateUser(user.id, {
        firstName: form.firstName,
        lastName: form.lastName,
        roles: form.roles.map((name) => ({ name })),
        enabled: form.enabled,
        ...(needsKeeper(form) ? { keeperId: form.keeperId } : {}),
      });
      replace(updated);
      notifications.show('users.updated', 'success', { username: updated.username });
      setDialog(null);
      return null;
    } catch (error) {
      report('users.updateError', error, user.username);
      return error;
    }
  };

  const changePassword = async (user: User, password: string): Promise<unknown> => {
    try {
      await setPassword(user.id, password);
      notifications.show('users.passwordSet', 'success', { username: user.username });
      setDialog(null);
      return null;
    } catch (error) {
      report('users.passwordError', error, user.username);
      return error;
    }
  };

  const remove = async (user: User) => {
    setDeleting(true);
    try {
      await deleteUser(user.id);
      setUsers((current) => (current ?? []).filter((u) => u.id !== user.id));
      notifications.show('users.deleted', 'success', { username: user.username });
      setDialog(null);
    } catch (error) {
      report('users.deleteError', error, user.username);
    } finally {
      setDeleting(false);
    }
  };

  const { visible: shown, pagination } = usePaging(users ?? []);

  return (
    <Stack spacing={2} sx={{ maxWidth: 1200 }}>
      <Stack
        direction="row"
        useFlexGap
        spacing={2}
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}
      >
        {systemAdmin ? (
          <WorkshopPicker
            workshops={workshops}
            failed={workshopsFailed}
            value={picked}
            onChange={pick}
            onRetry={() => void loadWorkshops()}
          />
        ) : (
          <Typography color="text.secondary">
            {session?.workshop ? t('home.workshop', { name: session.workshop.name }) : t('home.noWorkshop')}
          </Typography>
        )}
        <Button
          variant="contained"
          startIcon={<PersonAddIcon />}
          onClick={() => setDialog({ kind: 'new' })}
          disabled={users === null || (systemAdmin && (workshops === null || (picked !== null && !pickedName)))}
          data-testid="user-new"
        >
          {t('users.new')}
        </Button>
      </Stack>

      <LoadFailure
        kind={loadFailed}
        testId="users"
        message={t('users.loadFailed')}
        retryLabel={t('users.retry')}
        onRetry={() => void load()}
      />

      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        {users === null && !loadFailed && <LinearProgress aria-label={t('app.loading')} />}
        <TableContainer>
          <Table
            data-testid="users-table"
            sx={[{ minWidth: { md: 820 } }, stackedRowsBelowMd]}
            aria-label={t('routes.users')}
          >
            <TableHead>
              <TableRow>
                <TableCell sx={stickyCell}>{t('users.username')}</TableCell>
                <TableCell>{t('users.firstName')}</TableCell>
                <TableCell>{t('users.lastName')}</TableCell>
                <TableCell>{t('users.roles')}</TableCell>
                <TableCell align="center">{t('users.enabled')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {users !== null && users.length === 0 && (
                <TableRow>
                  <TableCell colSpan={6}>
                    <Typography color="text.secondary" sx={{ py: 2 }}>
                      {t('users.empty')}
                    </Typography>
                  </TableCell>
                </TableRow>
              )}
              {shown.map((user) => {
                const self = user.id === session?.id;
                return (
                  <TableRow key={user.id} hover data-testid={`user-row-${user.username}`}>
                    <TableCell sx={{ ...stickyCell, fontWeight: 600 }} data-label={t('users.username')}>
                      {user.username}
                    </TableCell>
                    <TableCell data-label={t('users.firstName')}>{user.firstName}</TableCell>
                    <TableCell data-label={t('users.lastName')}>{user.lastName}</TableCell>
                    <TableCell data-label={t('users.roles')}>
                      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                        {user.roles.map((role) => (
                          <Chip key={role.name} label={t(`roles.${role.name}`)} size="small" />
                        ))}
                        {keeperName(user.keeperId) && (
                          <Chip
                            label={keeperName(user.keeperId)}
                            size="small"
                            variant="outlined"
                            data-testid={`user-keeper-${user.username}`}
                          />
                        )}
                      </Box>
                    </TableCell>
                    <TableCell
                      align="center"
                      data-testid={`user-enabled-${user.username}`}
                      data-enabled={user.enabled}
                      data-label={t('users.enabled')}
                    >
                      {user.enabled ? (
                        <CheckCircleIcon
                          color="success"
                          sx={{ verticalAlign: 'middle' }}
                          titleAccess={t('users.enabledYes')}
                        />
                      ) : (
                        <BlockIcon
                          color="disabled"
                          sx={{ verticalAlign: 'middle' }}
                          titleAccess={t('users.enabledNo')}
                        />
                      )}
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap', py: 0.5 }}>
                      <Tooltip title={t('common.edit')}>
                        <IconButton
                          size="large"
                          onClick={() => setDialog({ kind: 'edit', user })}
                          aria-label={t('common.edit')}
                          data-testid={`user-edit-${user.username}`}
                        >
                          <EditIcon />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title={t('users.setPassword')}>
                        <IconButton
                          size="large"
                          onClick={() => setDialog({ kind: 'password', user })}
                          aria-label={t('users.setPassword')}
                          data-testid={`user-password-${user.username}`}
                        >
                          <KeyIcon />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title={self ? t('users.selfDelete') : t('common.delete')}>
                        {/* A disabled button gets no pointer events: the span keeps the tooltip. */}
                        <span>
                          <IconButton
                            size="large"
                            color="error"
                            disabled={self}
                            onClick={() => {
                              setToDelete(user);
                              setDialog({ kind: 'delete', user });
                            }}
                            aria-label={t('common.delete')}
                            data-testid={`user-delete-${user.username}`}
                          >
                            <DeleteIcon />
                          </IconButton>
                        </span>
                      </Tooltip>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
        {users !== null && <DataTablePagination {...pagination} selectTestId="users-rows-per-page" />}
      </Paper>

      {(dialog?.kind === 'new' || dialog?.kind === 'edit') && (
        <UserDialog
          user={dialog.kind === 'edit' ? dialog.user : null}
          assignableRoles={roles}
          {...(systemAdmin && dialog.kind === 'new'
            ? { workshopNote: pickedName ? t('home.workshop', { name: pickedName }) : t('users.inNoWorkshop') }
            : {})}
          self={dialog.kind === 'edit' && dialog.user.id === session?.id}
          keepers={keepers}
          onCancel={() => setDialog(null)}
          onSubmit={(form) => (dialog.kind === 'edit' ? update(dialog.user, form) : create(form))}
        />
      )}
      {dialog?.kind === 'initial' && (
        <InitialPasswordDialog username={dialog.username} password={dialog.password} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'password' && (
        <PasswordDialog
          username={dialog.user.username}
          onCancel={() => setDialog(null)}
          onSubmit={(password) => changePassword(dialog.user, password)}
        />
      )}
      <ConfirmDialog
        open={dialog?.kind === 'delete'}
        title={t('users.deleteTitle')}
        message={
          toDelete
            ? t('users.deleteQuestion', {
                username: toDelete.username,
                name: `${toDelete.firstName} ${toDelete.lastName}`,
              })
            : ''
        }
        confirmLabel={t('common.delete')}
        danger
        busy={deleting}
        onConfirm={() => {
          if (dialog?.kind === 'delete') void remove(dialog.user);
        }}
        onCancel={() => !deleting && setDialog(null)}
      />
    </Stack>
  );
}
