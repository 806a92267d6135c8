export * from './reference';
export * from './people';
export * from './auth';
export * from './voting';
export * from './records';
export * from './reminders';
