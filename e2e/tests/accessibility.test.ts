import { checkDigit, formatVehicleNumber } from '@vers/domain';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AxeViolation, axeViolations, settled } from '../support/axe.ts';
import { baseUrl, launchBrowser, signIn, signedInPage } from '../support/browser.ts';
import { createOrderViaApi } from '../support/orders.ts';

let browser: Browser;
let wagonOrderId: string;
let wheelsetOrderId: string;

const wheelsetNumber = (i: number) => {
  const first11 = `4${String(7_000_000_000 + i).slice(-10)}`;
  return `${first11}${checkDigit(first11)}`;
};

beforeAll(async () => {
  // Chromium's fake camera, allowed without asking, so that the camera screen shows its live picture.
  browser = await launchBrowser(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream']);
  wagonOrderId = await createOrderViaApi({
    type: 'WAGON',
    maintenanceNumber: '21 81 2471 217-3',
    wagon: { wheelsetsOutgoing: [0, 1, 2, 3].map((i) => ({ number: wheelsetNumber(i) })) },
  });
  wheelsetOrderId = await createOrderViaApi({ type: 'WHEELSET', maintenanceNumber: wheelsetNumber(9) });
});
afterAll(async () => {
  await browser?.close();
});

/** A fresh browser profile (light theme, German) that may use the fake camera. */
function context(viewport = { width: 1280, height: 800 }): Promise<BrowserContext> {
  return browser.newContext({ baseURL: baseUrl(), locale: 'de-DE', viewport, permissions: ['camera'] });
}

/** MUI's baseline paints the page background of each theme so: it tells which theme is on. */
const BACKGROUND = { light: 'rgb(255, 255, 255)', dark: 'rgb(18, 18, 18)' } as const;
type Theme = keyof typeof BACKGROUND;
const pageBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

describe('accessibility', () => {
  it('every screen, in the light and the dark theme, has no serious or critical axe-core violation', async () => {
    const found: { screen: string; violations: AxeViolation[] }[] = [];
    const checked: string[] = [];
    let theme: Theme = 'light';

    const checkOnce = async (page: Page, screen: string) => {
      await settled(page);
      await expect(pageBackground(page)).resolves.toBe(BACKGROUND[theme]);
      const violations = await axeViolations(page);
      checked.push(`${screen} (${theme})`);
      if (violations.length > 0) found.push({ screen: `${screen} (${theme})`, violations });
    };
    /** The theme switch as a user uses it (the drawer's, or the login page's). */
    const switchTheme = async (page: Page) => {
      await page.getByTestId('theme-switch').first().click();
      theme = theme === 'light' ? 'dark' : 'light';
      await expect.poll(() => pageBackground(page)).toBe(BACKGROUND[theme]);
    };
    /**
     * The screen as it is, then in the other theme. A dialog covers the drawer's switch: it is closed, the theme
     * switched and the dialog opened again.
     */
    const check = async (page: Page, screen: string, dialog?: { open(): Promise<void>; shown: Locator }) => {
      const close = async () => {
        await page.keyboard.press('Escape');
        await dialog?.shown.waitFor({ state: 'detached' });
      };
      await checkOnce(page, screen);
      if (dialog) await close();
      await switchTheme(page);
      if (dialog) {
        await dialog.open();
        await dialog.shown.waitFor();
      }
      await checkOnce(page, screen);
      if (dialog) await close();
    };

    const staff = await context();
    const page = await staff.newPage();
    await page.goto('/login');
    await page.getByTestId('login-username').waitFor();
    await check(page, 'login');
    await signIn(page, 'staff', 'wrong');
    await page.getByTestId('login-error').waitFor();
    await check(page, 'login refused');
    await signIn(page, 'staff');
    await page.getByTestId('home-welcome').waitFor();
    await check(page, 'home');
    // A snackbar (a filled alert), here the one that says the version was copied; the pointer on it keeps it open.
    const snackbar = page.getByRole('alert').filter({ hasText: 'Version kopiert' });
    const copyVersion = async () => {
      await page.getByTestId('version-frontend').click();
      await snackbar.hover();
    };
    await copyVersion();
    await check(page, 'home with a snackbar', { open: copyVersion, shown: snackbar });
    await page.getByTestId('menu-orders').click();
    await page.locator('[data-testid^="order-row-"]').first().waitFor();
    await check(page, 'orders');
    await page.getByTestId('order-new').click();
    await page.getByTestId('add-order-form').waitFor();
    await check(page, 'add order');

    // A wagon order's tabs: base data, the brake's many fields, a grid, the wheelsets' summary and one wheelset.
    await page.goto(`/orders/wagon/${wagonOrderId}/basedata`);
    await page.getByTestId('tab-basedata').waitFor();
    await check(page, 'wagon editor basedata');
    for (const tab of ['brake', 'loadLimitGrid']) {
      await page.getByTestId(`order-tab-${tab}`).click();
      await page.getByTestId(`tab-${tab}`).waitFor();
      await check(page, `wagon editor ${tab}`);
    }
    await page.getByTestId('order-tab-wheelsets').click();
    await page.getByTestId('entry-summary').waitFor();
    await check(page, 'wagon editor wheelsets');
    await page.getByTestId('order-tab-wheelsets-1').click();
    await page.getByTestId('tab-wheelsets').waitFor();
    await check(page, 'wagon editor wheelset 1');
    const openStatus = () => page.getByTestId('status-change').click();
    await openStatus();
    await page.getByTestId('status-dialog').waitFor();
    await check(page, 'status dialog', { open: openStatus, shown: page.getByTestId('status-dialog') });

    await page.getByTestId('open-documents').click();
    await page.getByTestId('documents-page').waitFor();
    await check(page, 'documents');
    await page.goBack();
    await page.getByTestId('open-images').click();
    await page.getByTestId('images-empty').waitFor();
    await check(page, 'images');
    await page.goBack();
    await page.getByTestId('open-camera').click();
    await expect.poll(() => page.getByTestId('camera-page').getAttribute('data-mode')).toBe('live');
    await check(page, 'camera');

    // A wheelset order: its base data and the wheels' measures (a collection per side).
    await page.goto(`/orders/wheelset/${wheelsetOrderId}/basedata`);
    await page.getByTestId('tab-basedata').waitFor();
    await check(page, 'wheelset editor basedata');
    await page.getByTestId('order-tab-wheelMeasures').click();
    await page.getByTestId('tab-wheelMeasures').waitFor();
    await check(page, 'wheelset editor wheelMeasures');
    await page.getByTestId('menu-profile').click();
    await page.getByTestId('profile-username').waitFor();
    await check(page, 'profile');
    await staff.close();

    const workshopAdmin = await context();
    const adminPage = await signedInPage(workshopAdmin, 'werkadmin');
    theme = 'light';
    await adminPage.getByTestId('menu-users').click();
    await adminPage.getByTestId('users-table').waitFor();
    await check(adminPage, 'users');
    const openUser = () => adminPage.getByTestId('user-new').click();
    await openUser();
    await adminPage.getByTestId('user-dialog').waitFor();
    await check(adminPage, 'user dialog', { open: openUser, shown: adminPage.getByTestId('user-dialog') });
    await adminPage.getByTestId('menu-workshop').click();
    await adminPage.getByTestId('workshop-form').waitFor();
    await check(adminPage, 'workshop');
    await workshopAdmin.close();

    const versAdmin = await context();
    const listsPage = await signedInPage(versAdmin, 'versadmin');
    theme = 'light';
    await listsPage.getByTestId('menu-defaultOptions').click();
    await listsPage.getByTestId('default-option-row-ListAuftraggeber').waitFor();
    await check(listsPage, 'value lists');
    await listsPage.getByTestId('default-option-row-ListAuftraggeber').click();
    await listsPage.getByTestId('values-table').waitFor();
    await check(listsPage, 'value list');
    const openValue = () => listsPage.getByTestId('value-add').click();
    await openValue();
    await listsPage.getByTestId('value-dialog').waitFor();
    await check(listsPage, 'value dialog', { open: openValue, shown: listsPage.getByTestId('value-dialog') });
    await versAdmin.close();

    expect(checked).toHaveLength(2 * 24);
    expect(found).toEqual([]);
  });

  it('an order is added with the keyboard alone, and the focus is always visible on a control', async () => {
    const ctx = await context();
    const page = await signedInPage(ctx, 'staff');
    await page.goto('/orders/add');
    await page.getByTestId('add-order-form').waitFor();
    const visited: string[] = [];

    /** Presses a key and checks where the focus went: a control the user can see is marked as focused. */
    const press = async (key: string) => {
      await page.keyboard.press(key);
      // MUI marks keyboard focus a frame after the focus event: the mark is waited for.
      let focus = await page.evaluate(focusState);
      await expect
        .poll(
          async () => {
            focus = await page.evaluate(focusState);
            return focus.problem;
          },
          { message: `${visited.slice(-40).join(' → ')} → ${key}` },
        )
        .toBeNull();
      visited.push(focus.description);
      return focus;
    };
    /** Tabs (or shift-tabs) until the control with this test id has the focus; no control is skipped over. */
    const tabTo = async (testId: string, key: 'Tab' | 'Shift+Tab' = 'Tab') => {
      for (let i = 0; i < 40; i++) {
        if ((await press(key)).testId === testId) return;
      }
      throw new Error(`${testId} not reached with ${key}; focus went through ${visited.slice(-40).join(' → ')}`);
    };
    const type = async (text: string) => {
      await page.keyboard.type(text);
      expect((await page.evaluate(focusState)).problem).toBeNull();
    };

    // The order type, one tab stop whose buttons the arrow keys go through: the wagon is chosen already; a visit
    // to the wheelset button and back, and Space keeps the wagon.
    await tabTo('order-type-wagon');
    await expect(press('ArrowRight')).resolves.toMatchObject({ testId: 'order-type-wheelset' });
    await expect(press('ArrowLeft')).resolves.toMatchObject({ testId: 'order-type-wagon' });
    await press('Space');
    await expect(page.getByTestId('order-type-wagon').getAttribute('aria-pressed')).resolves.toBe('true');
    await tabTo('order-number');
    await type('21812471217 3');
    // The contractor: typed, the first match taken from the list with the arrow key.
    await tabTo('order-contractor');
    await type('D');
    await press('ArrowDown');
    await press('Enter');
    await tabTo('order-external');
    await type('A11Y-KEYBOARD');
    // Two of the four wheelset rows removed: the focus moves to the remove button now in the place of the removed
    // row, and to "add" once no more may go; it never falls back to the page.
    await tabTo('wheelset-remove-3');
    await expect(press('Enter')).resolves.toMatchObject({ testId: 'wheelset-remove-2' });
    await expect(press('Enter')).resolves.toMatchObject({ testId: 'wheelset-add' });
    await expect(page.locator('[data-testid^="wheelset-number-"]').count()).resolves.toBe(2);
    await tabTo('wheelset-number-0', 'Shift+Tab');
    await type(wheelsetNumber(20));
    await tabTo('wheelset-number-1');
    await type(wheelsetNumber(21));
    await tabTo('order-save');
    // Saving leads to the order list, a new page: where the focus lands there is not this form's matter.
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/orders$/);
    await expect
      .poll(() => page.getByTestId('orders-table').textContent())
      .toContain(formatVehicleNumber('218124712173'));
    await expect(
      page.locator('[data-testid^="order-row-"]').filter({ hasText: 'A11Y-KEYBOARD' }).count(),
    ).resolves.toBe(1);
    await ctx.close();
  });

  it.each([
    ['landscape', { width: 1024, height: 768 }],
    ['portrait', { width: 768, height: 1024 }],
  ] as const)(
    'on a %s tablet every control of the order editor is at least 44 by 44 CSS pixels',
    async (_name, viewport) => {
      const ctx = await context(viewport);
      // Upright, the menu waits in its closed drawer: the start page tells that the sign-in is done.
      const page = await ctx.newPage();
      await page.goto('/login');
      await signIn(page, 'staff');
      await page.getByTestId('home-welcome').waitFor();
      const tooSmall: string[] = [];
      let measured = 0;
      const measure = async (screen: string) => {
        await settled(page);
        const targets = await page.evaluate(touchTargets);
        measured += targets.length;
        for (const target of targets) {
          if (target.width < MIN_TARGET || target.height < MIN_TARGET) {
            tooSmall.push(`${screen}: ${target.description} ${target.width}x${target.height}`);
          }
        }
      };
      await page.goto(`/orders/wagon/${wagonOrderId}/basedata`);
      await page.getByTestId('tab-basedata').waitFor();
      await measure('wagon basedata');
      // Below the md breakpoint (the upright tablet) the tabs are one selector: it is opened first.
      const openTab = async (id: string) => {
        const select = page.getByTestId('order-tab-select');
        if (await select.isVisible()) await select.click();
        await page.getByTestId(`order-tab-${id}`).click();
      };
      for (const tab of ['brake', 'loadLimitGrid']) {
        await openTab(tab);
        await page.getByTestId(`tab-${tab}`).waitFor();
        await measure(`wagon ${tab}`);
      }
      await openTab('wheelsets');
      await page.getByTestId('entry-summary').waitFor();
      await measure('wagon wheelsets');
      await openTab('wheelsets-1');
      await page.getByTestId('tab-wheelsets').waitFor();
      await measure('wagon wheelset 1');
      await page.getByTestId('status-change').click();
      await page.getByTestId('status-dialog').waitFor();
      await measure('status dialog');
      await ctx.close();
      // Each screen has its fields, tabs and buttons: an empty measurement would prove nothing.
      expect(measured).toBeGreaterThan(100);
      expect(tooSmall).toEqual([]);
    },
    60_000,
  );
});

/** WCAG 2.5.5 (AAA, and Apple's and Google's guidelines): 44 CSS pixels for a finger, gloved on a shop floor. */
const MIN_TARGET = 44;

/**
 * Runs in the page: the focused element, whether it is a control a keyboard user can operate, and whether the
 * focus shows (`:focus-visible` with an outline, a shadow, MUI's focus ripple, or a focused field's frame).
 */
function focusState(): { testId: string | null; description: string; problem: string | null } {
  const element = document.activeElement;
  if (!element || element === document.body) {
    return { testId: null, description: 'body', problem: 'the focus fell back to the page' };
  }
  const html = element as HTMLElement;
  const testId = html.dataset.testid ?? null;
  const description = `${element.tagName.toLowerCase()}${testId ? `[${testId}]` : ''} "${(
    element.getAttribute('aria-label') ??
    html.innerText ??
    ''
  )
    .trim()
    .slice(0, 40)}"`;
  const role = element.getAttribute('role');
  const control =
    ['BUTTON', 'A', 'INPUT', 'SELECT', 'TEXTAREA'].includes(element.tagName) ||
    ['button', 'link', 'checkbox', 'radio', 'switch', 'combobox', 'tab', 'option', 'menuitem', 'slider'].includes(
      role ?? '',
    );
  if (!control) return { testId, description, problem: 'the focus is on something that is no control' };
  // The visible part: an input hidden inside MUI's switch or checkbox shows its focus on the ButtonBase around it.
  const shown = (element.closest('.MuiButtonBase-root') as HTMLElement | null) ?? html;
  const box = shown.getBoundingClientRect();
  if (box.width === 0 || box.height === 0 || box.bottom < 0 || box.top > window.innerHeight) {
    return { testId, description, problem: 'the focused control is not in sight' };
  }
  if (!element.matches(':focus-visible')) return { testId, description, problem: 'no :focus-visible' };
  const style = getComputedStyle(shown);
  const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
  const shadow = style.boxShadow !== 'none';
  const ripple =
    shown.classList.contains('Mui-focusVisible') && shown.querySelector('.MuiTouchRipple-rippleVisible') !== null;
  const field = element.closest('.MuiInputBase-root.Mui-focused');
  const frame = field?.querySelector('.MuiOutlinedInput-notchedOutline');
  const framed = frame ? parseFloat(getComputedStyle(frame).borderTopWidth) >= 2 : false;
  return outline || shadow || ripple || framed
    ? { testId, description, problem: null }
    : { testId, description, problem: 'the focus is not shown' };
}

/**
 * Runs in the page: every visible control with the size of the area a finger hits. A field counts with its frame
 * (a tap anywhere in it focuses the input); a switch, checkbox or radio with the ButtonBase around its icon, whose
 * hidden input covers it.
 */
function touchTargets(): { description: string; width: number; height: number }[] {
  const selector = [
    'button',
    'a[href]',
    'input:not([type="hidden"])',
    'select',
    'textarea',
    '[role="button"]',
    '[role="link"]',
    '[role="tab"]',
    '[role="checkbox"]',
    '[role="radio"]',
    '[role="switch"]',
    '[role="combobox"]',
  ].join(',');
  const seen = new Set<Element>();
  const targets: { description: string; width: number; height: number }[] = [];
  for (const element of document.querySelectorAll<HTMLElement>(selector)) {
    // A select's combobox and its hidden native input are the field too.
    const input =
      ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName) ||
      (element.getAttribute('role') === 'combobox' && element.closest('.MuiInputBase-root') !== null);
    const checkable = element.matches('input[type="checkbox"], input[type="radio"]');
    const area =
      (checkable
        ? element.closest<HTMLElement>('.MuiButtonBase-root')
        : input
          ? element.closest<HTMLElement>('.MuiInputBase-root')
          : null) ?? element;
    if (seen.has(area)) continue;
    seen.add(area);
    const style = getComputedStyle(area);
    const box = area.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
    if (area.closest('[aria-hidden="true"]')) continue;
    const testId = element.dataset.testid ?? element.dataset.key ?? '';
    const name = (element.getAttribute('aria-label') ?? element.innerText ?? '').trim().slice(0, 30);
    targets.push({
      description: `${element.tagName.toLowerCase()}${testId ? `[${testId}]` : ''} "${name}"`,
      // A field's height counts: its width follows the layout and is never small.
      width: input && !checkable ? Infinity : Math.round(box.width),
      height: Math.round(box.height),
    });
  }
  return targets;
}
