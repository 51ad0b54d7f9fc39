/** webob's titles and explanations, which upstream's error bodies start with. */
export const STATUS_TEXT: Record<number, [string, string]> = {
  400: ['Bad Request', 'The server could not comply with the request since it is either malformed or otherwise incorrect.'],
  401: ['Unauthorized', 'This server could not verify that you are authorized to access the document you requested.'],
  403: ['Forbidden', 'Access was denied to this resource.'],
  404: ['Not Found', 'The resource could not be found.'],
  405: ['Method Not Allowed', 'The method specified is not allowed for this resource.'],
  406: ['Not Acceptable', 'The resource could not be generated that was acceptable to your browser'],
  408: ['Request Timeout', 'The server has waited too long for the request to be sent by the client.'],
  409: ['Conflict', 'There was a conflict when trying to complete your request.'],
  413: ['Request Entity Too Large', 'The body of your request was too large for this server.'],
  414: ['Request-URI Too Long', 'The request URI was too long for this server.'],
  415: ['Unsupported Media Type', 'The request media type is not supported by this server.'],
  431: ['Request Header Fields Too Large', 'The request header fields were too large'],
  500: ['Internal Server Error', 'The server has either erred or is incapable of performing the requested operation.'],
  503: ['Service Unavailable', 'The server is currently unavailable. Please try again at a later time.'],
};
