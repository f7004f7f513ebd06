export interface Config {
  infrared?: {
    /** Who counts as a platform admin: may register, remove and build clusters. */
    platformAdmins?: {
      /** Entity refs of groups whose members are platform admins. Default group:default/platform-admins. */
      groups?: string[];
      /**
       * Whether the guest user of local development (user:development/guest) is a platform admin.
       * Only for `npm start` on a laptop; keep false in production.
       */
      allowGuest?: boolean;
    };
  };
}
