export { createDelivery } from './delivery';
export { DeliveryError, type Delivery, type EmailMessage, type SmsMessage } from './types';
export { BackgroundSender } from './background';
