import { z } from 'zod';
import {
  DESCRIPTION_MAX,
  DESCRIPTION_MIN,
  MARKETPLACE_AVATARS,
  MARKETPLACE_CATEGORIES,
  MARKETPLACE_IMAGES,
  MARKETPLACE_TYPES,
  PRICE_TYPES,
  TIMEFRAMES,
  TITLE_MAX,
  TITLE_MIN,
} from './constants';

export const ZMarketplaceCategory = z.enum(MARKETPLACE_CATEGORIES);
export const ZMarketplaceType = z.enum(MARKETPLACE_TYPES);
export const ZPriceType = z.enum(PRICE_TYPES);
export const ZTimeframe = z.enum(TIMEFRAMES);
export const ZProjectStatus = z.enum(['open', 'closed']);
export type TMarketplaceCategory = z.infer<typeof ZMarketplaceCategory>;
export type TMarketplaceType = z.infer<typeof ZMarketplaceType>;
export type TPriceType = z.infer<typeof ZPriceType>;
export type TProjectStatus = z.infer<typeof ZProjectStatus>;

const ZImagePath = z.enum(MARKETPLACE_IMAGES as [string, ...string[]], { error: 'Please select a project image' });
const ZAvatarPath = z.enum(MARKETPLACE_AVATARS as [string, ...string[]], { error: 'Please select an avatar' });

const ZTitle = z
  .string()
  .trim()
  .min(1, 'Please enter a project title')
  .min(TITLE_MIN, `Title must be at least ${TITLE_MIN} characters long.`)
  .max(TITLE_MAX, `Title must be at most ${TITLE_MAX} characters long.`);
const ZDescription = z
  .string()
  .trim()
  .min(1, 'Please enter a project description')
  .min(DESCRIPTION_MIN, `Description must be at least ${DESCRIPTION_MIN} characters long.`)
  .max(DESCRIPTION_MAX, `Description must be at most ${DESCRIPTION_MAX} characters long.`);
const ZPersonName = z.string().trim().min(1, 'Please enter your name').max(100);
const ZBusinessName = z.string().trim().min(1, 'Please enter your business name').max(120);

/**
 * The creation payload (spec/billing-accounts.md 3, Marketplace project). `id` may be sent and is
 * ignored (the server assigns `mkp_` ids); `price` is recomputed from priceValue and priceType;
 * `email` is the account's and is never shown to other users.
 */
export const ZCreateProjectRequest = z.object({
  id: z.string().max(64).nullish(),
  title: ZTitle,
  description: ZDescription,
  timeframe: ZTimeframe,
  price: z.string().max(40).optional(),
  priceValue: z.number().int('Please enter a budget').min(0).max(10_000_000),
  priceType: ZPriceType,
  image: ZImagePath,
  icon: ZAvatarPath,
  category: ZMarketplaceCategory,
  marketplaceType: ZMarketplaceType,
  authorName: ZPersonName,
  email: z.string().max(254).nullish(),
  companyName: ZBusinessName,
});
export type TCreateProjectRequest = z.infer<typeof ZCreateProjectRequest>;

/** What the author may change; closing is `status: 'closed'`, reopening `'open'`. */
export const ZUpdateProjectRequest = z
  .object({
    title: ZTitle,
    description: ZDescription,
    timeframe: ZTimeframe,
    priceValue: z.number().int().min(0).max(10_000_000),
    priceType: ZPriceType,
    image: ZImagePath,
    icon: ZAvatarPath,
    category: ZMarketplaceCategory,
    marketplaceType: ZMarketplaceType,
    companyName: ZBusinessName,
    status: ZProjectStatus,
  })
  .partial()
  .refine((value) => Object.keys(value).length > 0, 'Nothing to change');
export type TUpdateProjectRequest = z.infer<typeof ZUpdateProjectRequest>;

/** A project as every signed-in user sees it: never the author's email. */
export const ZProject = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  timeframe: z.string(),
  price: z.string(),
  priceValue: z.number().int(),
  priceType: ZPriceType,
  image: z.string(),
  icon: z.string(),
  category: z.string(),
  marketplaceType: ZMarketplaceType,
  authorName: z.string(),
  companyName: z.string(),
  status: ZProjectStatus,
  isMine: z.boolean(),
  responseCount: z.number().int(),
  author: z.object({
    name: z.string(),
    businessName: z.string(),
    image: z.string().nullable(),
    memberSince: z.string(),
    projectCount: z.number().int(),
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TProject = z.infer<typeof ZProject>;

export const ZCreateProjectResponse = z.object({
  project: ZProject,
  projectsToday: z.number().int(),
  dailyLimit: z.number().int(),
});
export type TCreateProjectResponse = z.infer<typeof ZCreateProjectResponse>;

/** The 429 answer when the daily limit is reached: the error envelope plus the counts. */
export const ZDailyLimitResponse = z.object({
  error: z.object({ code: z.string(), message: z.string(), support_id: z.string() }),
  dailyLimitReached: z.literal(true),
  projectsToday: z.number().int(),
  dailyLimit: z.number().int(),
});

export const ZProjectListQuery = z.object({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  limit: z.coerce.number().int().min(1).max(50).default(12),
  q: z.string().trim().max(100).optional(),
  category: ZMarketplaceCategory.optional(),
  type: ZMarketplaceType.optional(),
  priceType: ZPriceType.optional(),
  minBudget: z.coerce.number().int().min(0).max(10_000_000).optional(),
  maxBudget: z.coerce.number().int().min(0).max(10_000_000).optional(),
  timeframe: ZTimeframe.optional(),
  /** Only the caller's own projects, open and closed. */
  mine: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
});
export type TProjectListQuery = z.infer<typeof ZProjectListQuery>;

export const ZProjectListResponse = z.object({
  projects: z.array(ZProject),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  /** Whether the caller's plan allows posting agency offers and responding (the marketplace capability). */
  canTrade: z.boolean(),
  dailyLimit: z.number().int(),
});
export type TProjectListResponse = z.infer<typeof ZProjectListResponse>;

/** A message to a project's author, mailed through the app; the author's address is never shown. */
export const ZRespondToProjectRequest = z.object({
  message: z
    .string()
    .trim()
    .min(20, 'Write at least 20 characters so the author knows what you offer.')
    .max(2000, 'Keep the message under 2000 characters.'),
});
export const ZRespondToProjectResponse = z.object({ sent: z.literal(true) });

export const ZUserProfileRequest = z.object({
  name: ZPersonName,
  businessName: ZBusinessName,
  image: z.union([ZAvatarPath, z.literal('')]).nullish(),
});
export type TUserProfileRequest = z.infer<typeof ZUserProfileRequest>;
export const ZUserProfile = z.object({
  name: z.string(),
  businessName: z.string(),
  image: z.string().nullable(),
});
export type TUserProfile = z.infer<typeof ZUserProfile>;

export const ZImageList = z.array(z.string());
