import {
  formatProjectPrice,
  type TCreateProjectRequest,
  type TProject,
  type TProjectListResponse,
  type TUpdateProjectRequest,
  type TUserProfileRequest,
} from '@switchboard/core';
import { and, eq } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { AppError, notFound } from '../../platform/errors';
import type { Tenant } from '../../platform/guard';
import { newId } from '../../platform/ids';
import type { Mailer } from '../../platform/mailer';
import type { Caller } from '../auth/session';
import { assertMarketplaceAction, canTrade } from './access';
import { projectResponseMail } from './mail';
import * as repo from './repo';
import { marketplaceProjects, marketplaceResponses, type ProjectRow } from './schema';

/** The UTC day a creation counts against. */
export const utcDay = (now = new Date()) => now.toISOString().slice(0, 10);

const projectNotFound = () => notFound('Project not found');

const toProject = (
  row: ProjectRow,
  viewerId: string,
  author: repo.AuthorInfo | undefined,
  responseCount: number,
): TProject => ({
  id: row.id,
  title: row.title,
  description: row.description,
  timeframe: row.timeframe,
  price: formatProjectPrice(row.priceValue, row.priceType),
  priceValue: row.priceValue,
  priceType: row.priceType,
  image: row.image,
  icon: row.icon,
  category: row.category,
  marketplaceType: row.marketplaceType,
  authorName: row.authorName,
  companyName: row.companyName,
  status: row.status,
  isMine: row.userId === viewerId,
  responseCount,
  author: {
    name: row.authorName || author?.name || '',
    businessName: row.companyName || author?.businessName || '',
    image: row.icon || author?.image || null,
    memberSince: (author?.memberSince ?? row.createdAt).toISOString(),
    projectCount: author?.projectCount ?? 0,
  },
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** Projects with their authors and response counts: a fixed number of queries for any page. */
const present = async (deps: Deps, rows: ProjectRow[], viewerId: string): Promise<TProject[]> => {
  const [authors, counts] = await Promise.all([
    repo.authorsOf(
      deps.db,
      rows.map((row) => row.userId),
    ),
    repo.responseCounts(
      deps.db,
      rows.map((row) => row.id),
    ),
  ]);
  return rows.map((row) => toProject(row, viewerId, authors.get(row.userId), counts.get(row.id) ?? 0));
};

export const listProjects = async (
  deps: Deps,
  caller: Caller,
  tenant: Tenant,
  filter: repo.ListFilter,
): Promise<TProjectListResponse> => {
  const [{ rows, total }, trade] = await Promise.all([
    repo.listProjects(deps.db, filter, caller.userId),
    canTrade(deps, tenant.accountId),
  ]);
  return {
    projects: await present(deps, rows, caller.userId),
    total,
    page: filter.page,
    limit: filter.limit,
    canTrade: trade,
    dailyLimit: deps.env.MARKETPLACE_DAILY_PROJECT_LIMIT,
  };
};

/** An open project, or the caller's own (open or closed); anything else is 404. */
const visibleProject = async (deps: Deps, callerId: string, projectId: string) => {
  const row = await repo.findProject(deps.db, projectId);
  if (!row || (row.status !== 'open' && row.userId !== callerId)) throw projectNotFound();
  return row;
};

const ownProject = async (deps: Deps, callerId: string, projectId: string) => {
  const row = await repo.findProject(deps.db, projectId);
  if (!row || row.userId !== callerId) throw projectNotFound();
  return row;
};

export const getProject = async (deps: Deps, caller: Caller, projectId: string) => {
  const row = await visibleProject(deps, caller.userId, projectId);
  const [project] = await present(deps, [row], caller.userId);
  return project as TProject;
};

export type CreateResult =
  | { kind: 'created'; project: TProject; projectsToday: number; dailyLimit: number }
  | { kind: 'limit'; projectsToday: number; dailyLimit: number };

/**
 * Posts a project. The daily place and the project are written in one transaction: two requests
 * at once cannot both pass the limit, and a failed insert does not use up a place.
 */
export const createProject = async (
  deps: Deps,
  caller: Caller,
  tenant: Tenant,
  body: TCreateProjectRequest,
): Promise<CreateResult> => {
  await assertMarketplaceAction(deps, tenant.accountId, { kind: 'post', marketplaceType: body.marketplaceType });
  const dailyLimit = deps.env.MARKETPLACE_DAILY_PROJECT_LIMIT;
  const day = utcDay();
  const outcome = await deps.db.transaction(async (tx) => {
    const projectsToday = await repo.takeDailyPlace(tx, caller.userId, day, dailyLimit);
    if (projectsToday === null) return { row: null, projectsToday: dailyLimit };
    const [row] = await tx
      .insert(marketplaceProjects)
      .values({
        id: newId('marketplaceProject'),
        userId: caller.userId,
        accountId: tenant.accountId,
        title: body.title,
        description: body.description,
        timeframe: body.timeframe,
        priceValue: body.priceValue,
        priceType: body.priceType,
        image: body.image,
        icon: body.icon,
        category: body.category,
        marketplaceType: body.marketplaceType,
        authorName: body.authorName,
        companyName: body.companyName,
        email: caller.email,
      })
      .returning();
    return { row: row as ProjectRow, projectsToday };
  });
  if (!outcome.row) {
    const projectsToday = Math.max(await repo.countToday(deps.db, caller.userId, day), outcome.projectsToday);
    return { kind: 'limit', projectsToday, dailyLimit };
  }
  const [project] = await present(deps, [outcome.row], caller.userId);
  return { kind: 'created', project: project as TProject, projectsToday: outcome.projectsToday, dailyLimit };
};

export const updateProject = async (
  deps: Deps,
  caller: Caller,
  tenant: Tenant,
  projectId: string,
  body: TUpdateProjectRequest,
) => {
  const current = await ownProject(deps, caller.userId, projectId);
  if (body.marketplaceType && body.marketplaceType !== current.marketplaceType) {
    await assertMarketplaceAction(deps, tenant.accountId, { kind: 'post', marketplaceType: body.marketplaceType });
  }
  const [row] = await deps.db
    .update(marketplaceProjects)
    .set({ ...body, updatedAt: new Date() })
    .where(and(eq(marketplaceProjects.id, current.id), eq(marketplaceProjects.userId, caller.userId)))
    .returning();
  if (!row) throw projectNotFound();
  const [project] = await present(deps, [row], caller.userId);
  return project as TProject;
};

export const deleteProject = async (deps: Deps, caller: Caller, projectId: string) => {
  const deleted = await deps.db
    .delete(marketplaceProjects)
    .where(and(eq(marketplaceProjects.id, projectId), eq(marketplaceProjects.userId, caller.userId)))
    .returning({ id: marketplaceProjects.id });
  if (!deleted.length) throw projectNotFound();
};

/** Mails a message to the project's author through the app; the author's address is never shown. */
export const respondToProject = async (
  deps: Deps,
  mailer: Mailer,
  caller: Caller,
  tenant: Tenant,
  projectId: string,
  message: string,
  origin: string,
) => {
  const row = await visibleProject(deps, caller.userId, projectId);
  if (row.userId === caller.userId) {
    throw new AppError('CONFLICT', 'This is your own project: answers come to you by email.');
  }
  if (row.status !== 'open') throw new AppError('CONFLICT', 'This project is closed.');
  await assertMarketplaceAction(deps, tenant.accountId, { kind: 'respond' });
  const profile = await repo.findProfile(deps.db, caller.userId);
  await deps.db
    .insert(marketplaceResponses)
    .values({ id: newId('marketplaceResponse'), projectId: row.id, userId: caller.userId, message });
  await mailer.send(
    projectResponseMail({
      to: row.email,
      projectTitle: row.title,
      projectLink: `${origin}/marketplace/${row.id}`,
      fromName: profile?.name || caller.name || caller.email,
      fromEmail: caller.email,
      message,
    }),
  );
  return { sent: true as const };
};

export const getProfile = async (deps: Deps, caller: Caller) => {
  const row = await repo.findProfile(deps.db, caller.userId);
  return { name: row?.name ?? caller.name, businessName: row?.businessName ?? '', image: row?.image ?? null };
};

export const saveProfile = async (deps: Deps, caller: Caller, body: TUserProfileRequest) => {
  const row = await repo.upsertProfile(deps.db, caller.userId, {
    name: body.name,
    businessName: body.businessName,
    image: body.image || null,
  });
  return {
    name: row?.name ?? body.name,
    businessName: row?.businessName ?? body.businessName,
    image: row?.image ?? null,
  };
};
