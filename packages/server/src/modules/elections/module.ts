import type { Core } from '../../core';
import type { Module } from '../../lib/module';
import { electionsRoutes } from './elections.router';
import { organisationRoutes } from './organisation.router';

type ElectionsRoutes = {
  /** The `elections` domain's election configuration (GET/PUT election); the rest of that domain is other modules'. */
  elections: ReturnType<typeof electionsRoutes>;
  organisation: ReturnType<typeof organisationRoutes>;
};

/** The elections module: the organisation and its elections (the catalogue), each election's configuration and phase. */
export function createElections(_core: Core): Module<ElectionsRoutes> {
  return {
    routes: (at) => ({ elections: electionsRoutes(at), organisation: organisationRoutes(at) }),
    services: {},
  };
}
