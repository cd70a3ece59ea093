/** The admin layout route's id: pages read the gate from its loader data (admin-session.ts). Its own file, so the route table stays light. */
export const ADMIN_LAYOUT_ROUTE_ID = 'admin';
