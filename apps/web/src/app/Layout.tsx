import { DRAWER_MINI_WIDTH, DRAWER_WIDTH, type MenuItem, type RouteRule, menuFor, menuPath } from '@vers/domain';
import AssignmentIcon from '@mui/icons-material/Assignment';
import BusinessIcon from '@mui/icons-material/Business';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import EventIcon from '@mui/icons-material/Event';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import FactoryIcon from '@mui/icons-material/Factory';
import GroupIcon from '@mui/icons-material/Group';
import ListAltIcon from '@mui/icons-material/ListAlt';
import TrainIcon from '@mui/icons-material/Train';
import LogoutIcon from '@mui/icons-material/Logout';
import MenuIcon from '@mui/icons-material/Menu';
import PersonIcon from '@mui/icons-material/Person';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { type ReactElement, type ReactNode, Suspense, useState } from 'react';
import { lazyChunk } from './chunks.ts';
import { ChunkWaitNotice } from './ChunkWaitNotice.tsx';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useMatches, useNavigate } from 'react-router';
import { LanguageSelect } from './LanguageSelect.tsx';
import { ThemeSwitch } from './ThemeSwitch.tsx';
import { VersionInfo } from './VersionInfo.tsx';
import { SNACKBAR_CLEARANCE, useCurrentNotification } from './notifications.ts';
import { useSession } from './session.ts';
import { endSession } from '../features/auth/sign-out.ts';
import { ConfirmDialog } from './components/ConfirmDialog.tsx';

// The sync status needs the IndexedDB code: one chunk of its own for all three views, loaded once signed in.
const statusViews = () => import('../offline/status-views.ts');
const SyncIndicator = lazyChunk(() => statusViews().then((views) => ({ default: views.SyncIndicator })));
const SyncTime = lazyChunk(() => statusViews().then((views) => ({ default: views.SyncTime })));
const OfflineBanner = lazyChunk(() => statusViews().then((views) => ({ default: views.OfflineBanner })));

const MENU_ICONS: Record<MenuItem, ReactElement> = {
  holderOrders: <TrainIcon />,
  orders: <AssignmentIcon />,
  qualityCheck: <FactCheckIcon />,
  deadlines: <EventIcon />,
  profile: <PersonIcon />,
  workshop: <FactoryIcon />,
  users: <GroupIcon />,
  keepers: <BusinessIcon />,
  defaultOptions: <ListAltIcon />,
};

export interface RouteHandle {
  route: RouteRule;
  /** The open tab's name, added to the toolbar title (orders editor). */
  tab?: (
    params: Record<string, string | undefined>,
  ) => ((t: (key: string, options?: Record<string, unknown>) => string) => string) | undefined;
}

/**
 * Toolbar title: the route name, plus the open tab when there is one
 * (docs/requirements/administration.md#toolbar-and-drawer).
 */
function useTitle(): string {
  const { t } = useTranslation();
  const matches = useMatches();
  const match = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.route);
  if (!match) return t('app.name');
  const handle = match.handle as RouteHandle;
  const tab = handle.tab?.(match.params);
  const name = t(`routes.${handle.route.name}`);
  return tab ? `${name} – ${tab((key, options) => t(key, options))}` : name;
}

export function Layout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  // Below the md breakpoint (900 px: phones, a tablet upright) the menu is a temporary drawer over the page, opened by
  // the menu button: the spec's 391 px left a 412 px phone 150 px beside a 260 px menu (docs/decisions.md).
  const mobile = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
  const [mini, setMini] = useState(false);
  const [mobileOpen, setMobileOpen] = useState(false);
  const title = useTitle();
  const notification = useCurrentNotification();
  // The editor's toolbar shows the last synchronisation time as well (docs/requirements/orders.md#editor-toolbar).
  const editing = useMatches().some((m) => (m.handle as RouteHandle | undefined)?.route.name === 'EditOrder');
  const width = mobile ? DRAWER_WIDTH : mini ? DRAWER_MINI_WIDTH : DRAWER_WIDTH;
  const items = session ? menuFor(session.roles) : [];
  const compact = mini && !mobile;
  const workshopId = session?.workshop?.id ?? null;
  // The entry of the page open now: the one leading exactly here, else the one whose path this page is under. Two
  // entries lead to the order list (all orders, the quality check), told apart by the address's filter, which a
  // NavLink does not look at.
  const here = useLocation();
  const exact = items.find((item) => menuPath(item, workshopId) === here.pathname + here.search);
  const isCurrent = (item: MenuItem) => {
    if (exact) return item === exact;
    const to = menuPath(item, workshopId);
    return !to.includes('?') && (here.pathname === to || here.pathname.startsWith(`${to}/`));
  };

  // Signing out with changes still waiting: say that they stay on the device and go with the next sign-in.
  const [unsentAtLogout, setUnsentAtLogout] = useState(0);
  const signOut = () => {
    setUnsentAtLogout(0);
    endSession();
    navigate('/login');
  };
  const logout = () => {
    void import('../offline/scheduler.ts')
      .then(({ syncScheduler }) => syncScheduler.countUnsentNow())
      .catch(() => 0)
      .then((unsent) => (unsent > 0 ? setUnsentAtLogout(unsent) : signOut()));
  };

  const drawer = (
    <Box
      component="nav"
      aria-label={t('menu.label')}
      sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}
      data-testid="drawer"
    >
      <Toolbar sx={{ justifyContent: compact ? 'center' : 'space-between', px: compact ? 0 : 2 }}>
        {!compact && (
          // The product's name, not a heading: each screen's own title is its first heading (the toolbar's h1).
          <Typography variant="h6" component="p" color="primary" sx={{ fontWeight: 700 }}>
            {t('app.name')}
          </Typography>
        )}
        {!mobile && (
          <IconButton
            onClick={() => setMini((value) => !value)}
            aria-label={mini ? t('menu.expand') : t('menu.collapse')}
            data-testid="drawer-toggle"
          >
            {mini ? <MenuIcon /> : <ChevronLeftIcon />}
          </IconButton>
        )}
      </Toolbar>
      <Divider />
      <List component="nav" aria-label={t('app.name')} data-testid="menu">
        {items.map((item) => (
          <ListItemButton
            key={item}
            component={Link}
            to={menuPath(item, workshopId)}
            selected={isCurrent(item)}
            aria-current={isCurrent(item) ? 'page' : undefined}
            onClick={() => setMobileOpen(false)}
            data-testid={`menu-${item}`}
            sx={{
              flexDirection: compact ? 'column' : 'row',
              '&.Mui-selected, &.Mui-selected:hover': { bgcolor: 'action.selected' },
            }}
          >
            <ListItemIcon sx={{ minWidth: compact ? 0 : 48, justifyContent: 'center' }}>
              {MENU_ICONS[item]}
            </ListItemIcon>
            <ListItemText
              primary={t(`menu.${item}`)}
              slotProps={{ primary: compact ? { variant: 'caption', align: 'center' } : {} }}
            />
          </ListItemButton>
        ))}
      </List>
      <Box sx={{ flexGrow: 1 }} />
      {!compact && (
        <Box sx={{ px: 2, pb: 1, display: 'grid', gap: 1 }}>
          <ThemeSwitch />
          <LanguageSelect />
        </Box>
      )}
      <Divider />
      {!compact && <VersionInfo />}
      {/* A div, not a ul: the sign-out button is no list item. */}
      <List component="div">
        <ListItemButton onClick={logout} data-testid="logout" sx={{ flexDirection: compact ? 'column' : 'row' }}>
          <ListItemIcon sx={{ minWidth: compact ? 0 : 48, justifyContent: 'center' }}>
            <LogoutIcon />
          </ListItemIcon>
          <ListItemText
            primary={t('menu.logout')}
            slotProps={{ primary: compact ? { variant: 'caption', align: 'center' } : {} }}
          />
        </ListItemButton>
      </List>
    </Box>
  );

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <AppBar
        position="fixed"
        sx={{ width: mobile ? '100%' : `calc(100% - ${width}px)`, ml: mobile ? 0 : `${width}px` }}
      >
        <Toolbar>
          {mobile && (
            <IconButton
              color="inherit"
              edge="start"
              onClick={() => setMobileOpen(true)}
              aria-label={t('menu.open')}
              data-testid="drawer-open"
              sx={{ mr: 1 }}
            >
              <MenuIcon />
            </IconButton>
          )}
          <Typography variant="h6" component="h1" noWrap data-testid="toolbar-title" sx={{ flexGrow: 1 }}>
            {exact === 'qualityCheck' ? t('menu.qualityCheck') : title}
          </Typography>
          <Suspense fallback={null}>
            {editing && <SyncTime />}
            <SyncIndicator />
          </Suspense>
        </Toolbar>
      </AppBar>
      {mobile ? (
        <Drawer
          variant="temporary"
          open={mobileOpen}
          onClose={() => setMobileOpen(false)}
          slotProps={{ paper: { sx: { width: DRAWER_WIDTH } } }}
        >
          {drawer}
        </Drawer>
      ) : (
        <Drawer
          variant="permanent"
          sx={{ width, flexShrink: 0 }}
          slotProps={{ paper: { sx: { width, overflowX: 'hidden', transition: 'width 150ms' } } }}
        >
          {drawer}
        </Drawer>
      )}
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0 }}>
        <Toolbar />
        <Box sx={{ p: { xs: 2, sm: 3 }, pb: notification ? SNACKBAR_CLEARANCE : undefined }} data-testid="page-content">
          <Suspense fallback={null}>
            <OfflineBanner />
          </Suspense>
          <ChunkWaitNotice />
          {children}
        </Box>
      </Box>
      <ConfirmDialog
        open={unsentAtLogout > 0}
        title={t('menu.logout')}
        message={t('sync.unsentAtLogout', { count: unsentAtLogout })}
        confirmLabel={t('menu.logout')}
        onConfirm={signOut}
        onCancel={() => setUnsentAtLogout(0)}
      />
    </Box>
  );
}
