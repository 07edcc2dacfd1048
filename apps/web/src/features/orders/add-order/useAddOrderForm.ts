import { CONTRACTOR_LIST, type Language, type OrderType, ORDER_TYPES } from '@vers/domain';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifications } from '../../../app/notifications.ts';
import { deviceId } from '../../../offline/device.ts';
import { versdb } from '../../../offline/versdb.ts';
import { useXmlImports } from '../XmlImportButton.tsx';
import { newUuid } from '../xml-import.ts';
import {
  type AddOrderForm,
  type ContractorOption,
  contractorOptionsOf,
  isFormInvalid,
  isImporting,
  messageKeyOf,
  newForm,
  orderRequest,
  submitOrder,
  withContractor,
  withExternal,
  withNumber,
  withNumberChecked,
  withRefusal,
  withRowAdded,
  withRowChecked,
  withRowNumber,
  withRowRemoved,
  withRowTemplate,
  withType,
  withVehicleTemplate,
} from './add-order-form.ts';

/** The import slot of a wheelset row: by its key, as rows can be removed from the middle. */
const rowSlot = (key: number) => `wheelset-${key}`;

/**
 * The add-order screen's state and actions (docs/requirements/orders.md#add-order): the form (its changes are the
 * plain functions of add-order-form.ts), the running XML template imports, the contractor list of this device, and
 * the save. `onSaved` runs once the server or, offline, the device has the order.
 */
export function useAddOrderForm(onSaved: () => void) {
  const { i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'de') as Language;
  const [form, setForm] = useState<AddOrderForm>(newForm);
  const [serverMessage, setServerMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** One id per form: a repeated save after a lost answer finds the order created first (server is idempotent). */
  const [orderId] = useState(newUuid);
  const imports = useXmlImports();
  /** The rows as last rendered: a vehicle template that replaces them gives up their imports. */
  const currentRows = useRef(form.wheelsets);
  useEffect(() => {
    currentRows.current = form.wheelsets;
  }, [form.wheelsets]);

  const list = useLiveQuery(() => versdb.defaultOptions.get([CONTRACTOR_LIST, language]), [language]);
  const contractorOptions = useMemo(() => contractorOptionsOf(list?.values, language), [list, language]);
  // The chosen contractor shows in the current language's text when the language changes.
  const chosen = form.contractor
    ? (contractorOptions.find((o) => o.value === form.contractor!.value) ?? form.contractor)
    : null;

  const invalid = isFormInvalid(form);
  const importing = isImporting(form);

  const changeType = (next: OrderType | null) => {
    if (!next || next === form.type) return;
    // A template is for one order type.
    imports.cancel('vehicle');
    setForm((current) => withType(current, next));
  };

  const importVehicle = (file: File) => {
    const wagon = form.type === ORDER_TYPES.WAGON;
    void imports.start('vehicle', file, form.type, (state) => {
      if (wagon && state.kind === 'valid' && state.subNumbers.length > 0) {
        for (const row of currentRows.current) imports.cancel(rowSlot(row.key));
      }
      setForm((current) => withVehicleTemplate(current, state, wagon));
    });
  };

  const importWheelset = (rowKey: number, file: File) =>
    void imports.start(rowSlot(rowKey), file, ORDER_TYPES.WHEELSET, (state) =>
      setForm((current) => withRowTemplate(current, rowKey, state)),
    );

  const removeRow = (index: number) => {
    const row = form.wheelsets[index];
    if (row) imports.cancel(rowSlot(row.key));
    setForm((current) => withRowRemoved(current, index));
  };

  const submit = async () => {
    if (invalid || busy || importing) return;
    setBusy(true);
    setServerMessage(null);
    const outcome = await submitOrder(versdb, orderRequest(form, { id: orderId, dv: deviceId(versdb) }));
    switch (outcome.kind) {
      case 'created':
        notifications.show('orders.add.created', 'success', { number: outcome.order.number });
        onSaved();
        return;
      case 'savedLocally':
        notifications.show('orders.add.savedLocally', 'info');
        onSaved();
        return;
    }
    // Everything typed stays in the form.
    setBusy(false);
    if (outcome.kind === 'failed') {
      notifications.show('common.saveError', 'error');
      return;
    }
    if (outcome.kind === 'reported') return; // the global reaction told the user
    const messageKey = messageKeyOf(outcome.failure, (key) => i18n.exists(key));
    setForm((current) => withRefusal(current, outcome.failure));
    setServerMessage(messageKey);
    notifications.show(messageKey, 'error');
  };

  return {
    form,
    isWagon: form.type === ORDER_TYPES.WAGON,
    contractorOptions,
    chosen,
    busy,
    invalid,
    importing,
    serverMessage,
    dismissServerMessage: () => setServerMessage(null),
    changeType,
    changeNumber: (value: string) => setForm((current) => withNumber(current, value)),
    checkNumber: () => setForm(withNumberChecked),
    changeContractor: (option: ContractorOption | null) => setForm((current) => withContractor(current, option)),
    changeExternal: (value: string) => setForm((current) => withExternal(current, value)),
    importVehicle,
    changeRow: (index: number, value: string) => setForm((current) => withRowNumber(current, index, value)),
    checkRow: (index: number) => setForm((current) => withRowChecked(current, index)),
    importWheelset,
    addRow: () => setForm(withRowAdded),
    removeRow,
    submit,
  };
}
