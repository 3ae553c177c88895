import { describe, expect, it } from 'vitest';
import { TransferFaults } from './transfer-faults.js';

describe('TransferFaults', () => {
  it('fails the next N transfers, then lets them through', () => {
    const faults = new TransferFaults<{ status: number; times?: number }>();
    faults.add({ status: 500, times: 2 });
    expect([faults.take()?.status, faults.take()?.status, faults.take()]).toEqual([500, 500, undefined]);
  });

  it('fails every transfer until switched off', () => {
    const faults = new TransferFaults<{ status: number; times?: number }>();
    const off = faults.add({ status: 404 });
    expect([faults.take()?.status, faults.take()?.status]).toEqual([404, 404]);
    off();
    expect(faults.take()).toBeUndefined();
  });

  it('answers with the oldest fault still active', () => {
    const faults = new TransferFaults<{ status: number; times?: number }>();
    faults.add({ status: 503, times: 1 });
    faults.add({ status: 403 });
    expect([faults.take()?.status, faults.take()?.status]).toEqual([503, 403]);
  });
});
