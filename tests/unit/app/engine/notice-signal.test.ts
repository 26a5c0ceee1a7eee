import { describe, expect, it } from 'vitest';
import { adoptSession, applyEngineBatch, noticesSignal } from '../../../../src/app/engine/signals';
import { signedOutSession, type SessionSnapshot } from '../../../../src/shared/protocol/engine';

const signedIn = (uid: number, book: 'real' | 'demo', version: number): SessionSnapshot => ({
  ...signedOutSession,
  signedIn: true,
  token: 't',
  refreshToken: 'r',
  uid,
  book,
  version,
});

describe('the notice signal', () => {
  it('takes the unread count of each notice event and counts a rise as an arrival (a fall is notices read); another user forgets the count, a book switch does not', () => {
    adoptSession(signedIn(9, 'real', 1));
    const arrivalsBefore = noticesSignal.peek().arrivals;
    applyEngineBatch({ seq: 1, events: [{ type: 'notice', payload: { unreadCount: 2 } }] });
    applyEngineBatch({ seq: 2, events: [{ type: 'notice', payload: { unreadCount: 3 } }] });
    expect(noticesSignal.peek()).toEqual({ unreadCount: 3, arrivals: arrivalsBefore + 2 });
    // Notices read (here or in another tab): the count falls, nothing arrived.
    applyEngineBatch({ seq: 3, events: [{ type: 'notice', payload: { unreadCount: 1 } }] });
    expect(noticesSignal.peek()).toEqual({ unreadCount: 1, arrivals: arrivalsBefore + 2 });
    applyEngineBatch({ seq: 4, events: [{ type: 'notice', payload: { unreadCount: 2 } }] });
    expect(noticesSignal.peek()).toEqual({ unreadCount: 2, arrivals: arrivalsBefore + 3 });

    adoptSession(signedIn(9, 'demo', 2));
    expect(noticesSignal.peek().unreadCount).toBe(2);
    adoptSession(signedIn(10, 'real', 3));
    expect(noticesSignal.peek()).toEqual({ unreadCount: null, arrivals: arrivalsBefore + 3 });
  });
});
