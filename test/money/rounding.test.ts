import { describe, it, expect } from 'vitest';
import { formatMoney, moneyEquals, roundMoney, toCents } from '../../src/money/rounding.ts';

describe('toCents', () => {
  it('rounds half away from zero on the decimal value', () => {
    expect(toCents(1.005)).toBe(101);
    expect(toCents(-1.005)).toBe(-101);
    expect(toCents(2.675)).toBe(268);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(1151.0394)).toBe(115104);
    expect(toCents(0.004)).toBe(0);
    expect(toCents(12.344999)).toBe(1234);
  });
});

describe('roundMoney', () => {
  it('returns 2-decimal numbers and never -0', () => {
    expect(roundMoney(1.005)).toBe(1.01);
    expect(roundMoney(-50.45454545)).toBe(-50.45);
    expect(Object.is(roundMoney(-0.001), 0)).toBe(true);
    expect(Object.is(roundMoney(-0), 0)).toBe(true);
  });
});

describe('formatMoney', () => {
  it('formats with two decimals', () => {
    expect(formatMoney(1.005)).toBe('1.01');
    expect(formatMoney(1234.5)).toBe('1234.50');
    expect(formatMoney(45)).toBe('45.00');
    expect(formatMoney(0.07)).toBe('0.07');
  });
  it('formats negative values', () => {
    expect(formatMoney(-1.005)).toBe('-1.01');
    expect(formatMoney(-50.4545)).toBe('-50.45');
    expect(formatMoney(-0.5)).toBe('-0.50');
  });
  it('formats zero, -0 and tiny negatives as 0.00', () => {
    expect(formatMoney(0)).toBe('0.00');
    expect(formatMoney(-0)).toBe('0.00');
    expect(formatMoney(-0.004)).toBe('0.00');
  });
});

describe('moneyEquals', () => {
  it('allows a cent of tolerance', () => {
    expect(moneyEquals(50.4545, 50.45)).toBe(true);
    expect(moneyEquals(1.005, 1.01)).toBe(true);
    expect(moneyEquals(1, 1.01)).toBe(true);
    expect(moneyEquals(1, 1.02)).toBe(false);
  });
});
