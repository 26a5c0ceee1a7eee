/** The back office's codes (../shared/API.md "Staff back office"): never answered to the customer app. */
export const StaffErrorCode = {
  // Staff back office (../shared/API.md "Staff back office"). The spec's ROLE_* family: a call the member's roles do not allow.
  STAFF_ROLE_REQUIRED: 2001,
  STAFF_PASSWORD_CHANGE_REQUIRED: 2002,
  REVIEW_ALREADY_DECIDED: 2003,
  REVIEW_SAME_APPROVER: 2004,
  REVIEW_REASON_REQUIRED: 2005,
  STAFF_SELF_PROTECTED: 2006,
  PASSWORD_UNCHANGED: 2007,
  // Staff enrolment, segregation of duties and dual control (issue 31).
  STAFF_INVITATION_INVALID: 2008,
  STAFF_INVITATION_EXPIRED: 2009,
  STAFF_INVITATION_USED: 2010,
  STAFF_DUTIES_RELATED: 2011,
  PROPOSAL_OWN: 2012,
  PROPOSAL_STALE: 2013,
  PROPOSAL_ALREADY_DECIDED: 2014,
  VALUATION_SOURCE_MISMATCH: 2015,
  // A staff invitation sent again (the older link voided).
  STAFF_INVITATION_REPLACED: 2016,
  STAFF_NOT_INVITABLE: 2017,
  // Conflict of interest (src/shared/staff/conflict-of-interest.ts).
  STAFF_CUSTOMER_LINKED: 2018,
  STAFF_DOCUMENT_UNDECLARED: 2019,
  STAFF_DOCUMENT_DECLARED: 2020,
  STAFF_CUSTOMER_LINKED_RELATED: 2021,
  // The spec's ADMIN_NOT_FOUND: a call names a staff member (staffId) who does not exist.
  ADMIN_NOT_FOUND: 2022,
} as const;
