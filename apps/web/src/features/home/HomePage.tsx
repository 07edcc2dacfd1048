import { ROLE_GROUPS, hasAnyRole, siteIdResponseSchema } from '@vers/domain';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { Suspense, useEffect, useState } from 'react';
import { lazyChunk } from '../../app/chunks.ts';
import { useTranslation } from 'react-i18next';
import { call } from '../../app/api.ts';
import { PageFallback } from '../../app/PageFallback.tsx';
import { useSession } from '../../app/session.ts';

// The dashboard (and through it the charts) is a chunk of its own: the start page's stays within its budget, and
// roles without orders never load it.
const Dashboard = lazyChunk(() => import('./Dashboard.tsx'));

export default function HomePage() {
  const { t } = useTranslation();
  const session = useSession();
  const [siteId, setSiteId] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    // Failures get the global reactions of the API client (401 -> login), but no network: the offline banner says
    // so already, and the message would cover the dashboard's figures of this device.
    call('auth/siteId', siteIdResponseSchema, { handles: [0] })
      .then((answer) => live && setSiteId(answer.siteId))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  if (!session) return null;
  const readsOrders = hasAnyRole(session.roles, ROLE_GROUPS.orderRead) && session.workshop !== null;
  return (
    <>
      <Card sx={{ maxWidth: 640 }}>
        <CardContent>
          <Typography variant="h5" component="h2" gutterBottom data-testid="home-welcome">
            {t('home.welcome', { name: `${session.firstName} ${session.lastName}` })}
          </Typography>
          <Typography>
            {session.workshop ? t('home.workshop', { name: session.workshop.name }) : t('home.noWorkshop')}
          </Typography>
          {siteId && (
            <Typography color="text.secondary" data-testid="home-site-id">
              {t('home.siteId', { siteId })}
            </Typography>
          )}
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {t('home.next')}
          </Typography>
        </CardContent>
      </Card>
      {readsOrders && (
        <Suspense fallback={<PageFallback />}>
          <Dashboard />
        </Suspense>
      )}
    </>
  );
}
