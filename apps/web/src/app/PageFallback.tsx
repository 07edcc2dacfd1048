import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

export function PageFallback() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
      <CircularProgress aria-busy="true" />
    </Box>
  );
}
