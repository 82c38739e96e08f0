import type { TelegramStandIn, TestGroup, TestUser } from "./telegram";

export interface CastMember {
  key: "alex" | "morgan" | "sara";
  user: TestUser;
  role: string;
  admin: boolean;
}

export interface Cast {
  members: CastMember[];
  group: TestGroup;
  /** the group's creator: its admin for /groupsettings */
  owner: CastMember;
  topics: Array<{ id: number; name: string }>;
  member(userId: number): CastMember | undefined;
}

/**
 * The people of the playground: a normal user, an admin (the bot's, and the
 * group's creator) and a Persian speaker, and a forum group where all three
 * meet. Made before the bot starts, so the admin's id can go into ADMIN_IDS.
 */
export function createCast(tg: TelegramStandIn): Cast {
  const members: CastMember[] = [
    {
      key: "alex",
      user: tg.user({ firstName: "Alex", username: "alex_example", language: "en" }),
      role: "user",
      admin: false,
    },
    {
      key: "morgan",
      user: tg.user({ firstName: "Morgan", username: "morgan_admin", language: "en" }),
      role: "admin",
      admin: true,
    },
    {
      key: "sara",
      user: tg.user({ firstName: "Sara", username: "sara_fa", language: "fa" }),
      role: "Persian speaker",
      admin: false,
    },
  ];
  // Morgan created the group: its admin, who may change its /groupsettings
  const owner = members[1]!;
  const group = tg.group({
    title: "Studio group",
    forum: true,
    members: members.map((m) => m.user),
    creator: owner.user,
  });
  // opening a topic is an update: it waits in the queue until the bot polls
  const topics = ["Renders", "Ideas"].map((name) => ({
    id: group.createTopic(members[0]!.user, name),
    name,
  }));
  return { members, group, owner, topics, member: (userId) => members.find((m) => m.user.id === userId) };
}
