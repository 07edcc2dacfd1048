import { describe, expect, it } from 'vitest';
import { type Budgets, budgetsFromSizes, compareWithBudgets } from './budgets.ts';

const budgets: Budgets = { about: '', loginKb: 250, signedInFrameKb: 15, routesKb: { home: 2, orders: 60 } };

describe('compareWithBudgets', () => {
  it('passes sizes within their budgets, the budget itself included', () => {
    const verdicts = compareWithBudgets(
      [
        { name: 'login screen', kb: 250 },
        { name: 'signed-in frame', kb: 14 },
        { name: 'route home', kb: 1.1 },
        { name: 'route orders', kb: 59.9 },
      ],
      budgets,
    );
    expect(verdicts.every((v) => v.ok)).toBe(true);
  });

  it('fails a login screen over its budget, saying by how much', () => {
    const [login] = compareWithBudgets([{ name: 'login screen', kb: 262.5 }], { ...budgets, routesKb: {} });
    expect(login).toMatchObject({ ok: false, budgetKb: 250 });
    expect(login!.problem).toBe('login screen is 262.5 KB gzip, over its budget of 250 KB by 5.0 %');
  });

  it('fails a route grown past its own budget, and only that one', () => {
    const verdicts = compareWithBudgets(
      [
        { name: 'route home', kb: 1 },
        { name: 'route orders', kb: 60.2 },
      ],
      budgets,
    );
    expect(verdicts.filter((v) => !v.ok).map((v) => v.name)).toEqual(['route orders']);
  });

  it('fails a new route without a budget and a budget of a route that is gone', () => {
    const verdicts = compareWithBudgets(
      [
        { name: 'route home', kb: 1 },
        { name: 'route reports', kb: 5 },
      ],
      budgets,
    );
    expect(verdicts.filter((v) => !v.ok).map((v) => v.problem)).toEqual([
      'route reports has no budget in bench/budgets.json',
      'bench/budgets.json has a budget for route orders, which the router no longer lazy-loads: remove it',
    ]);
  });
});

describe('budgetsFromSizes', () => {
  it('leaves a few per cent of headroom, rounded up to whole KB', () => {
    const sizes = [
      { name: 'login screen', kb: 249.3 },
      { name: 'signed-in frame', kb: 14 },
      { name: 'route orders', kb: 58.8 },
    ];
    expect(budgetsFromSizes(sizes, 'x')).toEqual({
      about: 'x',
      loginKb: 260,
      signedInFrameKb: 15,
      routesKb: { orders: 62 },
    });
    expect(compareWithBudgets(sizes, budgetsFromSizes(sizes, 'x')).every((v) => v.ok)).toBe(true);
  });
});
