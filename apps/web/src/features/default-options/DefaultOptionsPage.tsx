import {
  type DefaultOptionSummary,
  type DefaultOptionValue,
  type Language,
  byText,
  formatDateTime,
} from '@vers/domain';
import SearchIcon from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Select from '@mui/material/Select';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import { stackedRowsBelowMd } from '../../app/components/stacked-rows.ts';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DataTablePagination } from '../../app/components/DataTablePagination.tsx';
import { usePaging } from '../../app/components/table-paging.ts';
import { fetchList, fetchSummaries } from './default-options-api.ts';

const ALL = 'all';
/** The value list that names the superstructure types; its texts label the filter. */
const SUPERSTRUCTURE_LIST = 'ListAufbautyp';

export function matchesSearch(list: DefaultOptionSummary, search: string): boolean {
  const needle = search.trim().toLocaleLowerCase();
  return !needle || [list.key, list.name, list.text].some((field) => field.toLocaleLowerCase().includes(needle));
}

export default function DefaultOptionsPage() {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  const navigate = useNavigate();
  const [lists, setLists] = useState<DefaultOptionSummary[] | null>(null);
  const [search, setSearch] = useState('');
  const [type, setType] = useState<string>(ALL);
  const [superstructureTypes, setSuperstructureTypes] = useState<DefaultOptionValue[]>([]);

  /** The load failed (the server away, no connection): said above the table with a retry, not an empty list. */
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setFailed(false);
    fetchSummaries(language)
      .then(async (answer) => {
        if (!live) return;
        setLists(answer);
        // The filter offers every superstructure type of the list that names them, not only the types some list
        // already carries (which, in the seeded lists, was tank alone). Without it the filter keeps those types.
        const named = answer.find((list) => list.key === SUPERSTRUCTURE_LIST);
        const types = named
          ? await fetchList(named.id).then(
              (list) => list.values,
              () => [],
            )
          : [];
        if (live) setSuperstructureTypes(types);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [language, attempt]);

  const typeOptions = useMemo(() => {
    const label = new Map(superstructureTypes.map((v) => [v.value, v.text]));
    const carried = (lists ?? []).map((l) => l.superstructureType).filter((c): c is string => !!c);
    const codes = [...new Set([...label.keys(), ...carried])];
    const order = byText(language);
    return codes.map((code) => ({ code, label: label.get(code) ?? code })).sort((a, b) => order(a.label, b.label));
  }, [lists, superstructureTypes, language]);

  const shown = (lists ?? []).filter(
    (list) => matchesSearch(list, search) && (type === ALL || list.superstructureType === type),
  );
  const { visible, resetPage, pagination } = usePaging(shown);

  return (
    <Paper sx={{ p: { xs: 1, sm: 2 } }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 2 }}>
        <TextField
          label={t('defaultOptions.search')}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            resetPage();
          }}
          sx={{ flex: '1 1 240px' }}
          slotProps={{
            htmlInput: { 'data-testid': 'default-options-search' },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon />
                </InputAdornment>
              ),
            },
          }}
        />
        <FormControl sx={{ flex: '0 1 240px', minWidth: 200 }}>
          <InputLabel id="superstructure-filter-label">{t('defaultOptions.superstructureType')}</InputLabel>
          <Select
            labelId="superstructure-filter-label"
            label={t('defaultOptions.superstructureType')}
            value={type}
            onChange={(e) => {
              setType(e.target.value);
              resetPage();
            }}
            data-testid="default-options-type"
          >
            <MenuItem value={ALL}>{t('defaultOptions.allTypes')}</MenuItem>
            {typeOptions.map((option) => (
              <MenuItem key={option.code} value={option.code}>
                {option.label}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      </Box>
      {failed && (
        <Alert
          severity="error"
          data-testid="default-options-load-error"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" onClick={() => setAttempt((n) => n + 1)}>
              {t('defaultOptions.retry')}
            </Button>
          }
        >
          {t('defaultOptions.loadFailed')}
        </Alert>
      )}
      <TableContainer>
        <Table size="medium" data-testid="default-options-table" sx={stackedRowsBelowMd}>
          <TableHead>
            <TableRow>
              <TableCell>{t('defaultOptions.key')}</TableCell>
              <TableCell>{t('defaultOptions.name')}</TableCell>
              <TableCell>{t('defaultOptions.text')}</TableCell>
              <TableCell align="right">{t('defaultOptions.amount')}</TableCell>
              <TableCell>{t('defaultOptions.lastModified')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {visible.map((list) => (
              <TableRow
                key={list.id}
                hover
                onClick={() => navigate(`/defaultoptions/${list.id}`)}
                sx={{ cursor: 'pointer' }}
                data-testid={`default-option-row-${list.key}`}
              >
                <TableCell data-label={t('defaultOptions.key')}>{list.key}</TableCell>
                <TableCell data-label={t('defaultOptions.name')}>{list.name}</TableCell>
                <TableCell data-label={t('defaultOptions.text')}>{list.text}</TableCell>
                <TableCell align="right" data-label={t('defaultOptions.amount')}>
                  {list.amount}
                </TableCell>
                <TableCell data-label={t('defaultOptions.lastModified')}>
                  {formatDateTime(list.lastModified, language)}
                </TableCell>
              </TableRow>
            ))}
            {lists !== null && shown.length === 0 && (
              <TableRow>
                <TableCell colSpan={5}>{t('defaultOptions.none')}</TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <DataTablePagination {...pagination} data-testid="default-options-pagination" />
    </Paper>
  );
}
