import { createContext, useContext } from 'react';
import type * as z from 'zod/mini';
import type { staffMe } from '../../shared/api/staff';
import type { BrandConfig } from '../../shared/config/brand-config';
import type { StaffClient } from '../api/staff-client';

export type StaffSelf = z.infer<typeof staffMe.data>;

/** What every console view may use: the request client, the signed-in member and the brand. */
export interface StaffServices {
  client: StaffClient;
  me: StaffSelf;
  config: BrandConfig;
  signOut: () => void;
}

export const StaffContext = createContext<StaffServices | null>(null);

export function useStaff(): StaffServices {
  const services = useContext(StaffContext);
  if (!services) throw new Error('useStaff outside the console');
  return services;
}
